/// Which bytes of a file have arrived: sorted, disjoint, non-touching half-open ranges.
/// A download that seeks ahead, or resumes after a drop, leaves holes that this tracks.
struct ByteRanges: Equatable, Sendable {
    private(set) var ranges: [Range<Int64>] = []

    mutating func insert(_ new: Range<Int64>) {
        guard !new.isEmpty else { return }
        // A transfer's next bytes extend the range it is filling: no new list for them.
        if let at = ranges.firstIndex(where: { $0.upperBound == new.lowerBound }),
           at + 1 == ranges.endIndex || ranges[at + 1].lowerBound > new.upperBound {
            ranges[at] = ranges[at].lowerBound..<new.upperBound
            return
        }
        var merged = new
        var kept: [Range<Int64>] = []
        kept.reserveCapacity(ranges.count + 1)
        for range in ranges {
            if range.upperBound < merged.lowerBound || range.lowerBound > merged.upperBound {
                kept.append(range)
            } else {
                merged = min(range.lowerBound, merged.lowerBound)..<max(range.upperBound, merged.upperBound)
            }
        }
        let at = kept.firstIndex { $0.lowerBound > merged.lowerBound } ?? kept.endIndex
        kept.insert(merged, at: at)
        ranges = kept
    }

    /// How many bytes from `offset` on have arrived without a hole.
    func available(from offset: Int64) -> Int64 {
        guard let range = ranges.first(where: { $0.contains(offset) }) else { return 0 }
        return range.upperBound - offset
    }

    /// The first byte at or after `offset`, below `end`, that has not arrived.
    func firstMissing(from offset: Int64, below end: Int64) -> Int64? {
        var at = offset
        for range in ranges where range.upperBound > at {
            if range.lowerBound > at { break }
            at = range.upperBound
        }
        return at < end ? at : nil
    }

    func covers(_ whole: Range<Int64>) -> Bool { whole.isEmpty || available(from: whole.lowerBound) >= whole.upperBound - whole.lowerBound }

    var byteCount: Int64 { ranges.reduce(0) { $0 + $1.upperBound - $1.lowerBound } }
}
