import Testing

/// `#expect(a == b)` for audio, files and other long collections. When such an
/// expectation fails, Swift Testing describes it with an element-by-element difference of
/// the two sides, which for a second of samples runs for many minutes: a CI run then
/// hangs instead of failing. This one says how long each side is and where they part.
func expectSame<A: Collection, B: Collection>(_ a: A, _ b: B, _ comment: @autoclosure () -> String = "",
                                              sourceLocation: SourceLocation = #_sourceLocation)
where A.Element == B.Element, A.Element: Equatable {
    if a.elementsEqual(b) { return }
    let parting = zip(a, b).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? min(a.count, b.count)
    let what = comment()
    Issue.record("\(what.isEmpty ? "" : what + ": ")\(a.count) against \(b.count) elements, first different at \(parting)",
                 sourceLocation: sourceLocation)
}
