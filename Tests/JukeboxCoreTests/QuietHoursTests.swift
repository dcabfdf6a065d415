import Foundation
import Testing
@testable import JukeboxCore

@Suite struct QuietHoursTests {
    func t(_ text: String) -> TimeOfDay { TimeOfDay(text)! }
    var night: QuietHours { QuietHours(start: t("19:30"), end: t("07:00"), maxVolume: 30, startVolume: 20) }

    @Test func timesOfDay() {
        #expect(TimeOfDay("7:05")?.minutes == 425)
        #expect(TimeOfDay("23:59")?.description == "23:59")
        #expect(TimeOfDay("24:00") == nil)
        #expect(TimeOfDay("12:5") == nil)
        #expect(TimeOfDay("noon") == nil)
        #expect(TimeOfDay("-1:30") == nil)
    }

    @Test func acrossMidnight() {
        #expect(!night.contains(t("19:29")))
        #expect(night.contains(t("19:30")))
        #expect(night.contains(t("00:00")))
        #expect(night.contains(t("06:59")))
        #expect(!night.contains(t("07:00")))
        #expect(night.cap(at: t("23:00")) == 30)
        #expect(night.cap(at: t("12:00")) == nil)
    }

    @Test func withinOneDay() {
        let nap = QuietHours(start: t("13:00"), end: t("15:00"), maxVolume: 10, startVolume: 10)
        #expect(!nap.contains(t("12:59")))
        #expect(nap.contains(t("13:00")))
        #expect(!nap.contains(t("15:00")))
        #expect(!nap.contains(t("23:00")))
    }

    @Test func nextLookIsTheNearerBoundaryAtMostTenMinutesAway() {
        #expect(night.secondsToNextLook(from: t("19:25")) == 300)
        #expect(night.secondsToNextLook(from: t("19:25"), second: 30) == 270)
        #expect(night.secondsToNextLook(from: t("06:58"), second: 59) == 61)
        #expect(night.secondsToNextLook(from: t("12:00")) == QuietHours.longestWait)
        #expect(night.secondsToNextLook(from: t("19:29"), second: 59) == 1)
    }

    @Test func summerTimeSkippingTheStartStillFindsQuietHours() {
        // Quiet from 02:30; the clock jumps from 02:00 to 03:00: the next look sees 03:00.
        let early = QuietHours(start: t("02:30"), end: t("06:00"), maxVolume: 30, startVolume: 30)
        var tracker = QuietHoursTracker()
        #expect(tracker.look(early, at: t("01:59")) == [])
        #expect(tracker.look(early, at: t("03:00")) == [.cap(30), .lowerVolume(to: 30)])
        // The clock put back an hour (03:10 to 02:10): by the wall clock it is not quiet yet.
        #expect(tracker.look(early, at: t("02:10")) == [.cap(nil)])
        #expect(tracker.look(early, at: t("02:30")) == [.cap(30), .lowerVolume(to: 30)])
    }

    @Test func trackerCapsAtTheStartAndLiftsAtTheEnd() {
        var tracker = QuietHoursTracker()
        // The box starts in quiet hours: capped, and the volume comes down.
        #expect(tracker.look(night, at: t("22:00")) == [.cap(30), .lowerVolume(to: 20)])
        #expect(tracker.look(night, at: t("23:00")) == [])
        #expect(tracker.look(night, at: t("07:00")) == [.cap(nil)])
        #expect(tracker.look(night, at: t("12:00")) == [])
        #expect(tracker.look(night, at: t("19:30")) == [.cap(30), .lowerVolume(to: 20)])
    }

    @Test func configEditsApplyAtOnce() {
        var tracker = QuietHoursTracker()
        // No quiet hours: nothing to tell the player, which starts with no cap.
        #expect(tracker.look(nil, at: t("22:00")) == [])
        #expect(tracker.look(night, at: t("22:00")) == [.cap(30), .lowerVolume(to: 20)])
        var louder = night
        louder.maxVolume = 50
        // Already quiet: the cap moves, the volume is left as it is.
        #expect(tracker.look(louder, at: t("22:01")) == [.cap(50)])
        #expect(tracker.look(nil, at: t("22:02")) == [.cap(nil)])
    }

    @Test func config() throws {
        let c = try ConfigLoader.parse("[quiet_hours]\nstart = \"19:30\"\nend = \"7:00\"\nmax_volume = 40\n", path: "j.toml")
        #expect(c.timers.quietHours == QuietHours(start: t("19:30"), end: t("07:00"), maxVolume: 40, startVolume: 40))
        #expect(try ConfigLoader.parse("", path: "j.toml").timers.quietHours == nil)
        func problem(_ text: String) -> String? {
            do { _ = try ConfigLoader.parse(text, path: "j.toml"); return nil } catch { return "\(error)" }
        }
        #expect(problem("[quiet_hours]\nstart = \"19:30\"\nend = \"25:00\"\n") == "j.toml:3:1: end is \"25:00\"; it must be a time of day, HH:MM, such as \"19:30\"")
        #expect(problem("[quiet_hours]\nstart = \"19:30\"\n")?.hasPrefix("j.toml:1:") == true)
        #expect(problem("[quiet_hours]\nstart = \"8:00\"\nend = \"9:00\"\nmax_volume = 20\nstart_volume = 30\n")
                == "j.toml:5:1: start_volume (30) is above max_volume (20)")
        #expect(problem("[sleep]\nsteps = [15, 0]\n")?.hasPrefix("j.toml:2:1: steps must be a list") == true)
        #expect(problem("[sleep]\nfade = 3\n")?.hasPrefix("j.toml:2:1: unknown key \"fade\"") == true)
        let sleep = try ConfigLoader.parse("[sleep]\nfade_seconds = 5\nsteps = [10, 20.5]\n[key_lock]\ncards = false\n", path: "j.toml")
        #expect(sleep.timers.sleep.fadeSeconds == 5)
        #expect(sleep.timers.sleep.steps == [10, 20.5])
        #expect(!sleep.timers.cardsWhileLocked)
    }
}

/// The service against a real player, its clock given: the cap and the lowered volume
/// reach the player's status, and an edit or the end lifts the cap.
@Suite struct QuietHoursServiceTests {
    final class Clock: @unchecked Sendable {
        var time = TimeOfDay(hour: 12, minute: 0)
    }

    @Test func capsLowersAndLifts() {
        var settings = Player.Settings()
        settings.startVolume = 80
        let player = Player(engine: FakeEngine(), settings: settings)
        let clock = Clock()
        clock.time = TimeOfDay(hour: 22, minute: 0)
        let night = QuietHours(start: TimeOfDay("19:30")!, end: TimeOfDay("07:00")!, maxVolume: 30, startVolume: 20)
        let service = QuietHoursService(player: player, hours: night, logger: .init(label: "test"), clock: { (clock.time, 0) })
        service.start(died: { _ in })
        #expect(player.status.volume == 20)
        player.perform(.setVolume(90))
        #expect(player.status.volume == 30)
        // The edit removes quiet hours: the cap goes, the volume stays.
        service.update(nil)
        let lifted = (0..<1000).contains { _ in
            player.perform(.setVolume(90))
            if player.status.volume == 90 { return true }
            usleep(10_000)
            return false
        }
        #expect(lifted)
        service.stop()
    }
}
