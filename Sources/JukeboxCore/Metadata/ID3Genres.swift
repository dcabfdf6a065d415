/// ID3v1 genre numbers 0–79 as the original ID3v1 specification lists them. ID3v2 TCON
/// frames may still refer to them as "(17)" or "17".
enum ID3Genres {
    static let names = [
        "Blues", "Classic Rock", "Country", "Dance", "Disco", "Funk", "Grunge", "Hip-Hop", "Jazz", "Metal",
        "New Age", "Oldies", "Other", "Pop", "R&B", "Rap", "Reggae", "Rock", "Techno", "Industrial",
        "Alternative", "Ska", "Death Metal", "Pranks", "Soundtrack", "Euro-Techno", "Ambient", "Trip-Hop",
        "Vocal", "Jazz+Funk", "Fusion", "Trance", "Classical", "Instrumental", "Acid", "House", "Game",
        "Sound Clip", "Gospel", "Noise", "AlternRock", "Bass", "Soul", "Punk", "Space", "Meditative",
        "Instrumental Pop", "Instrumental Rock", "Ethnic", "Gothic", "Darkwave", "Techno-Industrial",
        "Electronic", "Pop-Folk", "Eurodance", "Dream", "Southern Rock", "Comedy", "Cult", "Gangsta",
        "Top 40", "Christian Rap", "Pop/Funk", "Jungle", "Native American", "Cabaret", "New Wave",
        "Psychadelic", "Rave", "Showtunes", "Trailer", "Lo-Fi", "Tribal", "Acid Punk", "Acid Jazz",
        "Polka", "Retro", "Musical", "Rock & Roll", "Hard Rock",
    ]

    /// "(17)", "17" and "(17)Rock" become "Rock"; any other text is kept as written.
    static func resolve(_ text: String) -> String {
        var digits = Substring(text)
        if digits.hasPrefix("("), let close = digits.firstIndex(of: ")") {
            let rest = digits[digits.index(after: close)...]
            if let named = rest.nonEmptyTrimmed { return named }
            digits = digits[digits.index(after: digits.startIndex)..<close]
        }
        if let n = Int(digits), names.indices.contains(n) { return names[n] }
        return text
    }
}
