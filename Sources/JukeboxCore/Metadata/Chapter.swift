/// A named part of one file (an audiobook's chapter), as the file lists it.
public struct Chapter: Sendable, Equatable {
    public var title: String
    /// The first frame of the chapter, and the frame after its last.
    public var startFrame: Int64
    public var endFrame: Int64

    public init(title: String, startFrame: Int64, endFrame: Int64) {
        self.title = title
        self.startFrame = startFrame
        self.endFrame = endFrame
    }
}
