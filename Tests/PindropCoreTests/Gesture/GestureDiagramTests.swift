import Foundation
import XCTest
@testable import PindropCore

/// docs/gestures.md draws the gesture machines. This test reads the drawing (the mermaid edges and
/// the "inputs that keep the state" tables), runs a tour of stories that takes every transition,
/// and checks both ways: every transition the code takes is drawn, and every drawn one is taken.
final class GestureDiagramTests: XCTestCase {
    struct Transition: Hashable, CustomStringConvertible {
        var machine, from, input, to: String
        var description: String { "\(machine): \(from) --\(input)--> \(to)" }
    }

    static var docURL: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("docs/gestures.md")
    }

    /// The transitions drawn in docs/gestures.md.
    func documented() throws -> Set<Transition> {
        let text = try String(contentsOf: Self.docURL, encoding: .utf8)
        var out = Set<Transition>()
        var machine: String?
        var statesOf: [String: Set<String>] = [:]
        var tableRows: [(String, String)] = []
        var inTable = false
        let edge = try NSRegularExpression(pattern: #"^\s*(\w+) --> (\w+) : (\w+)"#)
        let brackets = try NSRegularExpression(pattern: #"\[[^\]]*\]"#)
        for line in text.components(separatedBy: "\n") {
            if let r = line.range(of: "%% machine: ") { machine = String(line[r.upperBound...]).trimmingCharacters(in: .whitespaces) }
            if line.hasPrefix("```") && !line.hasPrefix("```mermaid") { machine = nil }
            let ns = line as NSString
            if let m = machine, let e = edge.firstMatch(in: line, range: NSRange(location: 0, length: ns.length)) {
                let t = Transition(machine: m, from: ns.substring(with: e.range(at: 1)),
                                   input: ns.substring(with: e.range(at: 3)), to: ns.substring(with: e.range(at: 2)))
                out.insert(t)
                statesOf[m, default: []].formUnion([t.from, t.to])
            }
            let cells = line.split(separator: "|", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
            if cells.count == 4 && cells[1] == "state" && cells[2] == "inputs" { inTable = true; continue }
            if !line.hasPrefix("|") { inTable = false }
            if inTable && cells.count == 4 && !cells[1].hasPrefix("-") { tableRows.append((cells[1], cells[2])) }
        }
        for (state, inputs) in tableRows {
            guard let m = statesOf.first(where: { $0.value.contains(state) })?.key else {
                XCTFail("table row for unknown state \(state)"); continue
            }
            let plain = brackets.stringByReplacingMatches(in: inputs, range: NSRange(location: 0, length: (inputs as NSString).length), withTemplate: "")
            for input in plain.split(separator: ",") {
                out.insert(Transition(machine: m, from: state, input: input.trimmingCharacters(in: .whitespaces), to: state))
            }
        }
        return out
    }

    func testTheTraceReadsStateInputState() {
        let s = Story()
        s.addPin(1, atScreen: 600, 400)
        var lines: [String] = []
        s.map.gestureTrace = { lines.append($0.description) }
        s.down(600, 400, at: 0)
        s.tick(250)
        s.up(600, 400, at: 300)
        XCTAssertEqual(lines, [
            "[tap t=0.0] closed → down → closed",
            "[pointer t=0.0] idle → downOnPin → pressed",
            "[pointer t=250.0] pressed → liftTimeout → lifted",
            "[pointer t=300.0] lifted → up → idle",
        ])
    }

    func testTheDiagramInDocsMatchesTheMachine() throws {
        var seen = Set<Transition>()
        func story(_ configure: (inout Options) -> Void = { _ in }, _ body: (Story) -> Void) {
            let s = Story(configure)
            s.addPin(1, atScreen: 600, 400)
            s.addPin(2, atScreen: 300, 300)
            s.map.gestureTrace = { t in
                seen.insert(Transition(machine: "\(t.machine)", from: "\(t.from)", input: "\(t.input)", to: "\(t.to)"))
            }
            body(s)
        }
        let camera = Camera(centerLon: -118.2, centerLat: 33.8, zoom: 18, width: 1200, height: 800)
        let panned = Camera(centerLon: -118.2001, centerLat: 33.8, zoom: 18, width: 1200, height: 800)
        func removeAnother(_ s: Story) { s.addPin(9, atScreen: 50, 50); try! s.map.remove(id: 9) }

        // Press: tap, tremor, cancel, swipe, second finger, Esc, removal.
        story { s in s.down(600, 400, at: 0); s.move(602, 400, at: 10); s.up(602, 400, at: 50) }
        story { s in s.down(600, 400, at: 0); s.cancel(at: 10) }
        story { s in
            s.down(600, 400, at: 0); s.move(650, 400, at: 10)
            s.down(100, 100, at: 20, pointer: 1); s.move(120, 100, at: 30, pointer: 1)
            try! s.map.cancelGesture(time: 35); removeAnother(s)
            s.up(120, 100, at: 40, pointer: 1); s.cancel(at: 50)
        }
        story { s in s.down(600, 400, at: 0); s.down(100, 100, at: 20, pointer: 1); s.up(600, 400, at: 30); s.up(100, 100, at: 40, pointer: 1) }
        story { s in s.down(600, 400, at: 0); s.down(100, 100, at: 20, pointer: 1); s.cancel(at: 30, pointer: 1); s.up(600, 400, at: 40) }
        story { s in
            s.down(600, 400, at: 0); try! s.map.cancelGesture(time: 10); s.move(610, 400, at: 20)
            s.down(100, 100, at: 30, pointer: 1); s.up(100, 100, at: 40, pointer: 1)
            s.down(100, 100, at: 50, pointer: 1); s.cancel(at: 60, pointer: 1)
            s.down(100, 100, at: 70, pointer: 2); s.up(610, 400, at: 80); s.cancel(at: 90, pointer: 2)
        }
        story { s in
            s.down(600, 400, at: 0); try! s.map.remove(id: 2); try! s.map.remove(id: 1)
            removeAnother(s); try! s.map.cancelGesture(time: 10); s.up(600, 400, at: 20)
        }
        story { s in s.down(600, 400, at: 0); try! s.map.cancelGesture(time: 10); s.cancel(at: 20) }
        story { s in
            s.down(600, 400, at: 0); try! s.map.cancelGesture(time: 10)
            s.down(100, 100, at: 20, pointer: 1); s.cancel(at: 30); s.up(100, 100, at: 40, pointer: 1)
        }
        // Lifted and dragging: the host's fingers, camera changes, removals of other pins.
        story { s in
            s.down(600, 400, at: 0); s.tick(250); s.move(602, 400, at: 260)
            s.down(100, 100, at: 270, pointer: 1); s.move(120, 100, at: 280, pointer: 1); s.up(120, 100, at: 290, pointer: 1)
            s.down(100, 100, at: 300, pointer: 1); s.cancel(at: 310, pointer: 1)
            try! s.map.setCamera(panned); try! s.map.remove(id: 2)
            s.move(700, 400, at: 320)
            s.down(100, 100, at: 330, pointer: 1); s.move(700, 380, at: 340); s.up(100, 100, at: 350, pointer: 1)
            s.down(100, 100, at: 360, pointer: 1); s.cancel(at: 370, pointer: 1)
            s.move(1190, 380, at: 380); s.tick(400); try! s.map.setCamera(camera); removeAnother(s)
            s.up(1190, 380, at: 420)
        }
        story { s in s.down(600, 400, at: 0); s.tick(250); s.up(600, 400, at: 300) }
        story { s in s.down(600, 400, at: 0); s.tick(250); s.down(1, 1, at: 260, pointer: 1); s.up(600, 400, at: 300); s.up(1, 1, at: 310, pointer: 1) }
        story { s in s.down(600, 400, at: 0); s.tick(250); s.cancel(at: 300) }
        story { s in s.down(600, 400, at: 0); s.tick(250); s.down(1, 1, at: 260, pointer: 1); s.cancel(at: 300); s.up(1, 1, at: 310, pointer: 1) }
        story { s in s.down(600, 400, at: 0); s.tick(250); try! s.map.cancelGesture(time: 300); s.up(600, 400, at: 310) }
        story { s in s.down(600, 400, at: 0); s.tick(250); try! s.map.remove(id: 1); s.up(600, 400, at: 310) }
        story { s in _ = s.liftAndStartDrag(600, 400, at: 0); s.down(1, 1, at: 500, pointer: 1); s.up(620, 400, at: 510); s.up(1, 1, at: 520, pointer: 1) }
        story { s in _ = s.liftAndStartDrag(600, 400, at: 0); s.cancel(at: 500) }
        story { s in _ = s.liftAndStartDrag(600, 400, at: 0); s.down(1, 1, at: 500, pointer: 1); s.cancel(at: 510); s.up(1, 1, at: 520, pointer: 1) }
        story { s in _ = s.liftAndStartDrag(600, 400, at: 0); try! s.map.cancelGesture(time: 500); s.up(620, 400, at: 510) }
        story { s in _ = s.liftAndStartDrag(600, 400, at: 0); try! s.map.remove(id: 1); s.up(620, 400, at: 510) }
        story({ $0.liftDelayMs = 0 }) { s in s.down(600, 400, at: 0); s.move(650, 400, at: 10); s.up(650, 400, at: 20) }
        // Second pointers that land on a pin (pin 2 is drawn at 300, 300), and a dragged finger
        // that comes back within drag_threshold of where it went down.
        story { s in s.down(600, 400, at: 0); s.down(300, 300, at: 10, pointer: 1); s.up(600, 400, at: 20); s.down(600, 400, at: 30); s.up(600, 400, at: 40); s.up(300, 300, at: 50, pointer: 1) }
        story { s in s.down(600, 400, at: 0); s.tick(250); s.down(300, 300, at: 260, pointer: 1); s.up(300, 300, at: 270, pointer: 1); s.up(600, 400, at: 300) }
        story { s in
            _ = s.liftAndStartDrag(600, 400, at: 0); s.down(300, 300, at: 500, pointer: 1); s.up(300, 300, at: 505, pointer: 1)
            s.move(601, 400, at: 510); s.up(601, 400, at: 520)
        }
        story { s in s.down(600, 400, at: 0); try! s.map.cancelGesture(time: 10); s.down(300, 300, at: 20, pointer: 1); s.up(300, 300, at: 30, pointer: 1); s.up(600, 400, at: 40) }
        story { s in s.down(900, 700, at: 0); s.down(300, 300, at: 10, pointer: 1); s.up(900, 700, at: 20); s.up(300, 300, at: 30, pointer: 1) }
        // Touches off the pins and the tap window.
        story { s in
            s.map.editingID = 1
            s.down(900, 700, at: 0); s.move(902, 700, at: 10); removeAnother(s); s.up(902, 700, at: 50)
            s.down(905, 700, at: 100); s.up(905, 700, at: 150)                  // double tap
            s.down(100, 700, at: 1000); s.up(100, 700, at: 1050)
            s.down(1000, 100, at: 1100); s.up(1000, 100, at: 1150)              // far away: replaces it
            s.tick(2000)                                                        // tap-to-move
            s.down(100, 700, at: 3000); s.up(100, 700, at: 3050)
            try! s.map.cancelGesture(time: 3100); try! s.map.cancelGesture(time: 3200); removeAnother(s)
        }
        story { s in s.down(900, 700, at: 0); s.cancel(at: 10) }
        story { s in s.down(900, 700, at: 0); s.move(990, 700, at: 10); s.up(990, 700, at: 20) }
        story { s in s.down(900, 700, at: 0); s.down(100, 700, at: 10, pointer: 1); s.up(900, 700, at: 20); s.up(100, 700, at: 30, pointer: 1) }
        story { s in s.down(900, 700, at: 0); try! s.map.cancelGesture(time: 10); s.up(900, 700, at: 20) }

        // Clusters (zoom 14, radius 60): pins 1 and 2 form a cluster drawn near (605, 400), pins 4
        // and 5 another near (303, 600); pin 3 at (100, 100) is alone.
        func clusterStory(_ body: (Story) -> Void) {
            let s = Story({ $0.clusterRadius = 60 }, zoom: 14)
            s.addPin(1, atScreen: 600, 400); s.addPin(2, atScreen: 610, 400)
            s.addPin(3, atScreen: 100, 100)
            s.addPin(4, atScreen: 300, 600); s.addPin(5, atScreen: 306, 600)
            s.map.gestureTrace = { t in
                seen.insert(Transition(machine: "\(t.machine)", from: "\(t.from)", input: "\(t.input)", to: "\(t.to)"))
            }
            body(s)
        }
        func removeFar(_ s: Story) { s.addPin(9, atScreen: 50, 750); try! s.map.remove(id: 9) }
        clusterStory { s in s.down(605, 400, at: 0); s.move(606, 400, at: 10); removeFar(s); s.up(606, 400, at: 50) }
        clusterStory { s in s.down(605, 400, at: 0); s.cancel(at: 10) }
        clusterStory { s in s.down(605, 400, at: 0); s.move(680, 400, at: 10); s.up(680, 400, at: 20) }
        clusterStory { s in
            s.down(605, 400, at: 0); s.down(100, 100, at: 10, pointer: 1); s.down(303, 600, at: 15, pointer: 2)
            s.up(605, 400, at: 20); s.up(100, 100, at: 30, pointer: 1); s.up(303, 600, at: 40, pointer: 2)
        }
        clusterStory { s in s.down(605, 400, at: 0); s.down(900, 700, at: 10, pointer: 1); s.up(605, 400, at: 20); s.up(900, 700, at: 30, pointer: 1) }
        clusterStory { s in s.down(605, 400, at: 0); s.down(303, 600, at: 10, pointer: 1); s.up(605, 400, at: 20); s.up(303, 600, at: 30, pointer: 1) }
        clusterStory { s in
            s.down(605, 400, at: 0); try! s.map.cancelGesture(time: 10)
            s.down(303, 600, at: 20, pointer: 1); s.up(303, 600, at: 30, pointer: 1); s.up(605, 400, at: 40)
        }
        clusterStory { s in s.down(100, 100, at: 0); s.down(303, 600, at: 10, pointer: 1); s.up(100, 100, at: 20); s.up(303, 600, at: 30, pointer: 1) }
        clusterStory { s in s.down(900, 700, at: 0); s.down(303, 600, at: 10, pointer: 1); s.up(900, 700, at: 20); s.up(303, 600, at: 30, pointer: 1) }
        clusterStory { s in
            s.down(100, 100, at: 0); s.tick(250); s.down(303, 600, at: 260, pointer: 1)
            s.up(303, 600, at: 270, pointer: 1); s.up(100, 100, at: 300)
        }
        clusterStory { s in
            let t = s.liftAndStartDrag(100, 100, at: 0); s.down(303, 600, at: t + 10, pointer: 1)
            s.up(303, 600, at: t + 20, pointer: 1); s.up(110, 100, at: t + 30)
        }

        // The keyboard machine (behaviour 20): pin 1 selected, lifted by key, nudged, dropped,
        // cancelled, removed; a camera change and another pin's removal while it is held; a
        // key lift that closes a waiting tap window.
        func keyStory(_ body: (Story) -> Void) {
            story { s in try! s.map.select(id: 1); body(s) }
        }
        keyStory { s in
            try! s.map.keyLift(time: 0); try! s.map.setCamera(panned); removeAnother(s)
            try! s.map.keyDrop(time: 10)
        }
        keyStory { s in try! s.map.keyLift(time: 0); try! s.map.cancelGesture(time: 10) }
        keyStory { s in try! s.map.keyLift(time: 0); try! s.map.remove(id: 1) }
        keyStory { s in
            try! s.map.keyLift(time: 0); try! s.map.nudge(dx: 10, dy: 0, time: 10)
            try! s.map.nudge(dx: 570, dy: 0, time: 20); s.tick(100); try! s.map.setCamera(camera)
            removeAnother(s); try! s.map.keyDrop(time: 110)
        }
        keyStory { s in try! s.map.keyLift(time: 0); try! s.map.nudge(dx: 1, dy: 0, time: 10); try! s.map.cancelGesture(time: 20) }
        keyStory { s in try! s.map.keyLift(time: 0); try! s.map.nudge(dx: 1, dy: 0, time: 10); try! s.map.remove(id: 1) }
        keyStory { s in
            s.down(900, 700, at: 0); s.up(900, 700, at: 50)   // a tap on the map: its window is open
            try! s.map.keyLift(time: 100); try! s.map.keyDrop(time: 110)
        }
        // Stacks (spread_on_tap; zoom 16, cluster radius 20, tolerance 100 m): pins 1 and 2, 40
        // points apart, are a stack drawn at (580, 400), pins 3 and 4 another at (300, 600); pins 5
        // and 6 are a cluster near (902, 200); pin 7 at (100, 100) is alone.
        func stackStory(_ body: (Story) -> Void) {
            let s = Story({ $0.spreadOnTap = true; $0.clusterRadius = 20; $0.spreadToleranceM = 100 }, zoom: 16)
            s.addPin(1, atScreen: 560, 400); s.addPin(2, atScreen: 600, 400)
            s.addPin(3, atScreen: 280, 600); s.addPin(4, atScreen: 320, 600)
            s.addPin(5, atScreen: 900, 200); s.addPin(6, atScreen: 905, 200)
            s.addPin(7, atScreen: 100, 100)
            s.map.gestureTrace = { t in
                seen.insert(Transition(machine: "\(t.machine)", from: "\(t.from)", input: "\(t.input)", to: "\(t.to)"))
            }
            body(s)
        }
        stackStory { s in s.down(580, 400, at: 0); s.move(581, 400, at: 10); removeFar(s); s.up(581, 400, at: 50) }
        stackStory { s in s.down(580, 400, at: 0); s.cancel(at: 10); try! s.map.cancelGesture(time: 20) }
        stackStory { s in s.down(580, 400, at: 0); s.move(650, 400, at: 10); s.up(650, 400, at: 20) }
        for second in [(100.0, 100.0), (1000, 700), (902, 200), (300, 600)] {
            stackStory { s in
                s.down(580, 400, at: 0); s.down(second.0, second.1, at: 10, pointer: 1)
                s.up(580, 400, at: 20); s.up(second.0, second.1, at: 30, pointer: 1)
            }
        }
        stackStory { s in
            s.down(580, 400, at: 0); try! s.map.cancelGesture(time: 10)
            s.down(300, 600, at: 20, pointer: 1); s.up(300, 600, at: 30, pointer: 1); s.up(580, 400, at: 40)
        }
        for first in [(100.0, 100.0), (1000, 700), (902, 200)] {
            stackStory { s in
                s.down(first.0, first.1, at: 0); s.down(300, 600, at: 10, pointer: 1)
                s.up(first.0, first.1, at: 20); s.up(300, 600, at: 30, pointer: 1)
            }
        }
        stackStory { s in
            s.down(100, 100, at: 0); s.tick(250); s.down(300, 600, at: 260, pointer: 1)
            s.up(300, 600, at: 270, pointer: 1); s.up(100, 100, at: 300)
        }
        stackStory { s in
            let t = s.liftAndStartDrag(100, 100, at: 0); s.down(300, 600, at: t + 10, pointer: 1)
            s.up(300, 600, at: t + 20, pointer: 1); s.up(110, 100, at: t + 30)
        }
        stackStory { s in
            s.down(1000, 700, at: 0); s.move(1090, 700, at: 10); s.down(300, 600, at: 20, pointer: 1)
            s.up(1090, 700, at: 30); s.up(300, 600, at: 40, pointer: 1)
        }

        let doc = try documented()
        XCTAssertGreaterThan(doc.count, 50, "the diagram was read")
        for t in seen.subtracting(doc).sorted(by: { $0.description < $1.description }) {
            XCTFail("taken by the code but not drawn in docs/gestures.md: \(t)")
        }
        for t in doc.subtracting(seen).sorted(by: { $0.description < $1.description }) {
            XCTFail("drawn in docs/gestures.md but never taken by the tour: \(t)")
        }
    }
}
