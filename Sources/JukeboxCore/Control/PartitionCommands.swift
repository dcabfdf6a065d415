/// MPD's partitions, as an MPD that can make no more of them answers: the box has one
/// player and one set of outputs, and its buttons, screen and saved state all belong to
/// them, so `default` is its only partition, and holds every output. MPD's own replies
/// are kept, so a client sees a full MPD rather than an unknown command.
extension ControlSession {
    static let partitionCommands: [MPDCommand] = [
        .init("listpartitions", .read, 0...0) { _, _ in "partition: \(ControlSession.defaultPartition)\n" },
        .init("partition", .read, 1...1) { _, request in
            guard request.arguments[0] == ControlSession.defaultPartition else {
                throw MPDProtocol.Ack(code: .noExist, message: "partition does not exist")
            }
            return ""
        },
        .init("newpartition", .change, 1...1) { _, request in
            let name = request.arguments[0]
            guard ControlSession.isPartitionName(name) else { throw MPDProtocol.Ack(code: .argument, message: "bad name") }
            guard name != ControlSession.defaultPartition else { throw MPDProtocol.Ack(code: .exist, message: "name already exists") }
            // MPD's refusal when it can make no more partitions (it stops at 16). Here the
            // limit is the one there is: a second would need a second player and outputs.
            throw MPDProtocol.Ack(code: .unknown, message: "too many partitions")
        },
        .init("delpartition", .change, 1...1) { _, request in
            let name = request.arguments[0]
            guard ControlSession.isPartitionName(name) else { throw MPDProtocol.Ack(code: .argument, message: "bad name") }
            guard name != ControlSession.defaultPartition else {
                throw MPDProtocol.Ack(code: .unknown, message: "cannot delete the default partition")
            }
            throw MPDProtocol.Ack(code: .noExist, message: "no such partition")
        },
        // Every output is in `default` already: moving one there changes nothing, as in MPD.
        .init("moveoutput", .change, 1...1) { s, request in
            guard s.outputs.listed.contains(where: { $0.device == request.arguments[0] }) else {
                throw MPDProtocol.Ack(code: .noExist, message: "No such output")
            }
            return ""
        },
    ]

    static let defaultPartition = "default"

    /// A name MPD would give a partition: ASCII letters, digits, `_` and `-`.
    static func isPartitionName(_ name: String) -> Bool {
        !name.isEmpty && name.utf8.allSatisfy { byte in
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "_"), UInt8(ascii: "-"): true
            default: false
            }
        }
    }
}
