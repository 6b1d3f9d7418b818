/// Cycles in "waits for" graphs: `requires-failure-of` and `after:` between gestures.
/// The arena needs to know whether there is one; the config check names each.
public enum CycleSearch {
    /// Walks `edges` (`edges[i]`: the nodes `i` points to) depth-first and calls
    /// `found` for each edge that closes a cycle, with the cycle's nodes in order from
    /// the edge's target to its source (a view of the walk's path, not a copy).
    /// Iterative, so a long chain cannot overflow the stack; linear in nodes and edges
    /// besides what `found` does. Stops when `found` returns false.
    public static func cycles(in edges: [[Int]], _ found: (ArraySlice<Int>) -> Bool) {
        var state = [UInt8](repeating: 0, count: edges.count)  // 0 unvisited, 1 on the path, 2 done
        var position = [Int](repeating: 0, count: edges.count)  // where a node on the path is
        for root in edges.indices where state[root] == 0 {
            var path = [root], next = [0]
            state[root] = 1
            while let i = path.last {
                let e = next[next.count - 1]
                guard e < edges[i].count else {
                    state[i] = 2
                    path.removeLast()
                    next.removeLast()
                    continue
                }
                next[next.count - 1] += 1
                let j = edges[i][e]
                if state[j] == 1 {
                    if !found(path[position[j]...]) { return }
                } else if state[j] == 0 {
                    state[j] = 1
                    position[j] = path.count
                    path.append(j)
                    next.append(0)
                }
            }
        }
    }
}
