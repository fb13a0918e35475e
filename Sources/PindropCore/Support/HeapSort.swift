/// An in-place heap sort: the standard library's sort takes a scratch buffer, and frames and the
/// touches that lay out stacks and badges allocate nothing once warmed. Not stable; `before` is a
/// strict weak order.
extension Array {
    mutating func heapSortInPlace(by before: (Element, Element) -> Bool) {
        let n = count
        guard n > 1 else { return }
        withUnsafeMutableBufferPointer { a in
            func sift(_ start: Int, _ end: Int) {
                var root = start
                while 2 * root + 1 < end {
                    var child = 2 * root + 1
                    if child + 1 < end && before(a[child], a[child + 1]) { child += 1 }
                    guard before(a[root], a[child]) else { return }
                    a.swapAt(root, child)
                    root = child
                }
            }
            for start in stride(from: n / 2 - 1, through: 0, by: -1) { sift(start, n) }
            for end in stride(from: n - 1, to: 0, by: -1) { a.swapAt(0, end); sift(0, end) }
        }
    }
}
