extension CardID {
    /// A card's UID as a PN532 reads it (4, 7 or 10 bytes), as upper-case hex digits in
    /// the order the card sends them: 04 A2 2B 1A → "04A22B1A". Nil for an empty UID.
    init?(uid: some Collection<UInt8>) {
        let digits: [UInt8] = Array("0123456789ABCDEF".utf8)
        var text = ""
        text.reserveCapacity(uid.count * 2)
        for byte in uid {
            text.unicodeScalars.append(Unicode.Scalar(digits[Int(byte >> 4)]))
            text.unicodeScalars.append(Unicode.Scalar(digits[Int(byte & 0x0F)]))
        }
        self.init(text)
    }
}
