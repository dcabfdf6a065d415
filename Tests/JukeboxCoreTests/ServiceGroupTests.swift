import Foundation
import Logging
import Testing
@testable import JukeboxCore

/// The group's order and failure policies, with services that only record what happens
/// to them. (The real services run in `DaemonLifecycleTests` and on the board.)
@Suite struct ServiceGroupTests {
    enum Trouble: Error { case broken }

    final class Recorder: @unchecked Sendable {
        private let lock = NSLock()
        private var entries: [String] = []
        func add(_ entry: String) { lock.withLock { entries.append(entry) } }
        var all: [String] { lock.withLock { entries } }
    }

    final class FakeService: Service, @unchecked Sendable {
        let name: String
        let policy: FailurePolicy
        let recorder: Recorder
        var failStarts: Int
        let error: any Error
        private let lock = NSLock()
        private var died: (@Sendable (any Error) -> Void)?

        init(_ name: String, _ policy: FailurePolicy, _ recorder: Recorder, failStarts: Int = 0, error: any Error = Trouble.broken) {
            self.name = name
            self.policy = policy
            self.recorder = recorder
            self.failStarts = failStarts
            self.error = error
        }

        func start(died: @escaping @Sendable (any Error) -> Void) throws {
            let fails = lock.withLock { () -> Bool in
                guard failStarts > 0 else { self.died = died; return false }
                failStarts -= 1
                return true
            }
            recorder.add("start \(name)\(fails ? " failed" : "")")
            if fails { throw error }
        }

        func stop() { recorder.add("stop \(name)") }

        /// Makes it stop by itself, as a loop whose poll failed does.
        func die() { lock.withLock { died }?(Trouble.broken) }
    }

    private func group(_ failures: Recorder? = nil) -> ServiceGroup {
        var logger = Logger(label: "test")
        logger.logLevel = .critical
        return ServiceGroup(logger: logger) { failures?.add("failed: \($0)") }
    }

    private func waitFor(_ condition: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline {
            if condition() { return true }
            usleep(5_000)
        }
        return condition()
    }

    @Test func startsInOrderAndStopsInReverseWithLateArrivalsFirst() throws {
        let log = Recorder()
        let services = group()
        for name in ["a", "b", "c"] { try services.add(FakeService(name, .required, log)) }
        try services.add(FakeService("late", .optional, log))
        services.stop()
        services.stop()  // once only
        #expect(log.all == ["start a", "start b", "start c", "start late", "stop late", "stop c", "stop b", "stop a"])
    }

    /// A service that adds another from its own start (as the resume adds the state saver).
    final class Spawner: Service, @unchecked Sendable {
        let name = "spawner"
        let policy = FailurePolicy.optional
        let group: ServiceGroup
        let child: FakeService
        let recorder: Recorder

        init(_ group: ServiceGroup, child: FakeService, _ recorder: Recorder) {
            self.group = group
            self.child = child
            self.recorder = recorder
        }

        func start(died: @escaping @Sendable (any Error) -> Void) throws {
            recorder.add("start spawner")
            try group.add(child)
        }

        func stop() { recorder.add("stop spawner") }
    }

    @Test func aServiceAddedFromAnothersStartStartsThereAndStopsBeforeIt() throws {
        let log = Recorder()
        let services = group()
        try services.add(FakeService("a", .required, log))
        try services.add(Spawner(services, child: FakeService("child", .optional, log), log))
        try services.add(FakeService("b", .required, log))
        services.stop()
        #expect(log.all == ["start a", "start spawner", "start child", "start b", "stop b", "stop child", "stop spawner", "stop a"])
    }

    @Test func aRequiredServiceThatCannotStartIsReported() throws {
        let log = Recorder()
        let services = group()
        try services.add(FakeService("a", .required, log))
        #expect(throws: ServiceGroup.Failure.self) { try services.add(FakeService("b", .required, log, failStarts: 1)) }
        services.stop()
        #expect(log.all == ["start a", "start b failed", "stop a"])
    }

    @Test func anOptionalServiceThatCannotStartIsLeftOut() throws {
        let log = Recorder()
        let services = group()
        try services.add(FakeService("a", .optional, log, failStarts: 1))
        try services.add(FakeService("b", .required, log))
        services.stop()
        #expect(log.all == ["start a failed", "start b", "stop b"])
    }

    @Test func boxMustNotRunOverridesAnyPolicy() throws {
        let log = Recorder()
        let services = group()
        #expect(throws: ServiceGroup.Failure.self) {
            try services.add(FakeService("socket", .restarted(firstDelay: 0.01), log, failStarts: 1, error: BoxMustNotRun(Trouble.broken)))
        }
        services.stop()
        #expect(log.all == ["start socket failed"])
    }

    @Test func aLoopThatDiesIsStartedAgainWithBackOff() throws {
        let log = Recorder()
        let services = group()
        let loop = FakeService("loop", .restarted(firstDelay: 0.02, longestDelay: 1), log)
        try services.add(loop)
        loop.die()
        #expect(waitFor { services.restarts(of: "loop") == 1 && log.all.last == "start loop" })
        loop.die()
        #expect(waitFor { services.restarts(of: "loop") == 2 && log.all.last == "start loop" })
        services.stop()
        #expect(log.all == ["start loop", "stop loop", "start loop", "stop loop", "start loop", "stop loop"])
    }

    @Test func aServiceThatCannotStartIsRetriedUntilItDoes() throws {
        let log = Recorder()
        let services = group()
        try services.add(FakeService("loop", .restarted(firstDelay: 0.01, longestDelay: 0.05), log, failStarts: 3))
        #expect(waitFor { log.all.last == "start loop" })
        services.stop()
        #expect(log.all == ["start loop failed", "start loop failed", "start loop failed", "start loop", "stop loop"])
    }

    @Test func aRequiredServiceThatDiesStopsTheBox() throws {
        let log = Recorder()
        let failures = Recorder()
        let services = group(failures)
        let engine = FakeService("engine", .required, log)
        try services.add(engine)
        engine.die()
        #expect(waitFor { failures.all.count == 1 })
        #expect(failures.all.first?.contains("engine stopped") == true)
    }

    @Test func nothingRestartsOnceStopping() throws {
        let log = Recorder()
        let services = group()
        let loop = FakeService("loop", .restarted(firstDelay: 0.01), log)
        try services.add(loop)
        services.stop()
        loop.die()
        usleep(100_000)
        #expect(log.all == ["start loop", "stop loop"])
        #expect(services.restarts(of: "loop") == 0)
    }
}
