/// Behaviour 18's history rule: nudges of one pin less than `gapMs` apart are one undo step, so
/// that a run of arrow-key presses (or a held key's repeats) is taken back by one undo. The series
/// is the latest history entry while it lasts: any other move, an undo, a redo or a commit in
/// between puts another entry on top (or takes this one off) and ends it.
struct NudgeSeries {
    static let gapMs = 1000.0

    private var id: Int64 = noID
    private var time = -Double.infinity
    private var serial: UInt64 = 0

    /// Whether a nudge of `id` at `time` continues the series, given the latest history entry.
    func continues(id: Int64, time: Double, latest: HistoryEntry?) -> Bool {
        // The serial names the series' entry (or, for a selection, its group of entries).
        guard let latest, id == self.id, latest.serial == serial else { return false }
        return time - self.time < NudgeSeries.gapMs
    }

    /// Ends the series: the next nudge starts a new undo step. An undo or a redo calls it, since a
    /// redo puts the series' own entry (same serial) back on top.
    mutating func end() {
        id = noID
    }

    /// A nudge of `id` at `time` whose move is the history entry `serial`.
    mutating func record(id: Int64, time: Double, serial: UInt64) {
        self.id = id
        self.time = time
        self.serial = serial
    }
}
