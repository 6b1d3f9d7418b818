import TouchModel

/// The $Q point-cloud recognizer: Radu-Daniel Vatavu, Lisa Anthony, Jacob O. Wobbrock,
/// "$Q: A Super-Quick, Articulation-Invariant Stroke-Gesture Recognizer for
/// Low-Resource Devices", MobileHCI 2018 (doi:10.1145/3229434.3229465). Written here
/// from the paper's description.
///
/// Why $Q (and not $1, $N or $P+): a drawn stroke is compared as a cloud of points, so
/// which way round and from which end the user drew a 'z' does not matter
/// (articulation-invariant, as $P), and $Q's lower bounds from a look-up table and its
/// early abandoning skip most of $P's work: a decision against the 24 built-in
/// templates takes about 0.1 ms (`make bench`, release), with no allocation, on the
/// daemon's thread at the lift. $P+ gains accuracy on multi-stroke gestures by
/// reweighting points; a gesture here is one stroke of the hand's centroid, and $P+
/// has neither the look-up table nor the early abandoning. $1 is rotation-invariant
/// by design: it would take an 'n' for a 'z' on its side.
///
/// A cloud: the stroke resampled to `count` points equally spaced along its path,
/// moved so its centroid is at 0 and scaled so its larger side is 1 (uniformly: a
/// tall 'l' stays tall), then each point snapped to a `grid`×`grid` cell. A
/// template's look-up table gives, for every cell, its nearest point: the sum of
/// each candidate point's distance to the template point nearest its cell bounds the
/// match from below, so most starts of the greedy match are never tried.
///
/// `distance` is the weighted mean distance of the best greedy match, in units of the
/// clouds' larger side: 0 for the same shape, about 0.2 for unrelated ones.
public enum QRecognizer {
    /// Points per cloud: $Q's (and $P's) 32.
    public static let count = 32
    /// Look-up table resolution: $Q's 64×64.
    static let grid = 64
    /// Starts of the greedy match tried: every ⌊n^(1-ε)⌋-th point, ε = 0.5 ($Q's).
    static let step = 5
    /// Sum of the match weights n, n-1, …, 1, to make a weighted sum a mean.
    static let weightSum = Double(count * (count + 1) / 2)

    /// A normalized stroke: `count` points and the look-up table's cells.
    public struct Cloud: Sendable, Equatable {
        public var xs: [Double]
        public var ys: [Double]
        /// For each cell (row-major, `grid`×`grid`), the index of the nearest point.
        var lut: [UInt8]

        /// An empty cloud to fill in place (`normalize(into:)`), with no table: a
        /// candidate, compared once with each template. $Q builds the candidate's table
        /// too, for the bound of the match the other way round; with one use per
        /// template, that bound computed exactly (each template point's nearest
        /// candidate point, 32×32) is tighter and cost a tenth of the table (4096×32).
        public init() {
            xs = Array(repeating: 0, count: QRecognizer.count)
            ys = Array(repeating: 0, count: QRecognizer.count)
            lut = []
        }

        /// The cloud of a template's stroke (its look-up table built: a few hundred µs,
        /// once); nil for a stroke with no extent.
        public init?(_ stroke: [Point]) {
            self.init()
            var scratch = Scratch()
            let ok = stroke.withUnsafeBufferPointer { QRecognizer.normalize($0, into: &self, scratch: &scratch) }
            guard ok else { return nil }
            buildTable()
        }

        /// Fills the look-up table from the points: each cell's nearest point.
        mutating func buildTable() {
            let g = QRecognizer.grid, n = QRecognizer.count
            lut = Array(repeating: 0, count: g * g)
            // The points on the grid once, on the stack (no allocation at the lift).
            withUnsafeTemporaryAllocation(of: Double.self, capacity: 2 * n) { at in
                for i in 0..<n { at[2 * i] = QRecognizer.onGrid(xs[i]); at[2 * i + 1] = QRecognizer.onGrid(ys[i]) }
                for row in 0..<g {
                    for col in 0..<g {
                        var best = 0, bestD = Double.infinity
                        for i in 0..<n {
                            let dx = at[2 * i] - Double(col), dy = at[2 * i + 1] - Double(row)
                            let d = dx * dx + dy * dy
                            if d < bestD { bestD = d; best = i }
                        }
                        lut[row * g + col] = UInt8(best)
                    }
                }
            }
        }
    }

    /// Working storage for one comparison, allocated once by its owner.
    public struct Scratch {
        /// The greedy match's points not yet taken, and $Q's lower bounds per start.
        var unmatched = [Int](repeating: 0, count: QRecognizer.count)
        var bounds1 = [Double](repeating: 0, count: QRecognizer.count / QRecognizer.step + 1)
        var bounds2 = [Double](repeating: 0, count: QRecognizer.count / QRecognizer.step + 1)
        var prefix = [Double](repeating: 0, count: QRecognizer.count)
        public init() {}
    }

    /// A coordinate in -1…1 (a normalized cloud's range) on the grid, 0…grid-1.
    @inline(__always)
    static func onGrid(_ v: Double) -> Double { (min(1, max(-1, v)) + 1) / 2 * Double(grid - 1) }

    /// The look-up table's cell of a point (row-major).
    @inline(__always)
    static func cell(_ x: Double, _ y: Double) -> Int {
        Int(onGrid(y).rounded()) * grid + Int(onGrid(x).rounded())
    }

    /// Path length of a polyline.
    static func pathLength(_ p: UnsafeBufferPointer<Point>) -> Double {
        var total = 0.0
        for i in p.indices.dropFirst() { total += (p[i] - p[i - 1]).length }
        return total
    }

    /// Resamples `stroke` to `count` points equally spaced along it, centres and scales
    /// them (see the type's comment) into `cloud`'s points (its table is left as is).
    /// False for a stroke of no extent. Allocates nothing.
    @discardableResult
    public static func normalize(_ stroke: UnsafeBufferPointer<Point>, into cloud: inout Cloud,
                                 scratch: inout Scratch) -> Bool {
        guard stroke.count >= 2 else { return false }
        let length = pathLength(stroke)
        guard length > 0 else { return false }
        let interval = length / Double(count - 1)
        var filled = 0
        var carried = 0.0  // path since the last point placed
        var previous = stroke[0]
        cloud.xs[0] = previous.x; cloud.ys[0] = previous.y
        filled = 1
        var i = 1
        while i < stroke.count && filled < count {
            let next = stroke[i]
            let seg = (next - previous).length
            if carried + seg >= interval && seg > 0 {
                let f = (interval - carried) / seg
                let q = Point(x: previous.x + f * (next.x - previous.x), y: previous.y + f * (next.y - previous.y))
                cloud.xs[filled] = q.x; cloud.ys[filled] = q.y
                filled += 1
                previous = q  // the rest of this segment is measured from the new point
                carried = 0
            } else {
                carried += seg
                previous = next
                i += 1
            }
        }
        // Rounding can leave the last point out: it is the stroke's end.
        let last = stroke[stroke.count - 1]
        while filled < count { cloud.xs[filled] = last.x; cloud.ys[filled] = last.y; filled += 1 }
        var cx = 0.0, cy = 0.0
        var minX = Double.infinity, maxX = -Double.infinity, minY = Double.infinity, maxY = -Double.infinity
        for k in 0..<count {
            cx += cloud.xs[k]; cy += cloud.ys[k]
            minX = min(minX, cloud.xs[k]); maxX = max(maxX, cloud.xs[k])
            minY = min(minY, cloud.ys[k]); maxY = max(maxY, cloud.ys[k])
        }
        cx /= Double(count); cy /= Double(count)
        let size = max(maxX - minX, maxY - minY)
        guard size > 0 else { return false }
        for k in 0..<count {
            cloud.xs[k] = (cloud.xs[k] - cx) / size
            cloud.ys[k] = (cloud.ys[k] - cy) / size
        }
        return true
    }

    /// $Q's match of `candidate` against `template`: the weighted mean distance of the
    /// best greedy match tried, or a value ≥ `worstUseful` when it cannot beat that
    /// (abandoned early). Allocates nothing.
    public static func distance(_ candidate: Cloud, _ template: Cloud, worstUseful: Double = .infinity,
                                scratch: inout Scratch) -> Double {
        var best = worstUseful * weightSum
        lowerBounds(candidate, template, into: &scratch.bounds1, prefix: &scratch.prefix)
        lowerBounds(template, candidate, into: &scratch.bounds2, prefix: &scratch.prefix)
        var j = 0
        var start = 0
        while start < count {
            if scratch.bounds1[j] < best {
                best = min(best, cloudDistance(candidate, template, start: start, best, &scratch.unmatched))
            }
            if scratch.bounds2[j] < best {
                best = min(best, cloudDistance(template, candidate, start: start, best, &scratch.unmatched))
            }
            start += step
            j += 1
        }
        return best / weightSum
    }

    /// Lower bounds of the weighted match of `a` onto `b` for each start (every
    /// `step`-th point), from `b`'s look-up table (or, for a `b` without one, each
    /// point's nearest in `b`): $Q's summed-area formula.
    private static func lowerBounds(_ a: Cloud, _ b: Cloud, into bounds: inout [Double], prefix: inout [Double]) {
        var first = 0.0
        let table = !b.lut.isEmpty
        for i in 0..<count {
            var nearest = Double.infinity
            if table {
                let k = Int(b.lut[cell(a.xs[i], a.ys[i])])
                let dx = a.xs[i] - b.xs[k], dy = a.ys[i] - b.ys[k]
                nearest = dx * dx + dy * dy
            } else {
                for k in 0..<count {
                    let dx = a.xs[i] - b.xs[k], dy = a.ys[i] - b.ys[k]
                    nearest = min(nearest, dx * dx + dy * dy)
                }
            }
            let d = nearest.squareRoot()
            prefix[i] = i == 0 ? d : prefix[i - 1] + d
            first += Double(count - i) * d
        }
        bounds[0] = first
        var j = 1
        var start = step
        while start < count {
            bounds[j] = first + Double(start) * prefix[count - 1] - Double(count) * prefix[start - 1]
            start += step
            j += 1
        }
    }

    /// The greedy match from point `start` of `a`: each point in turn takes the nearest
    /// point of `b` not yet taken, weighted n, n-1, … 1; abandoned once the sum reaches
    /// `bound`.
    private static func cloudDistance(_ a: Cloud, _ b: Cloud, start: Int, _ bound: Double,
                                      _ unmatched: inout [Int]) -> Double {
        for k in 0..<count { unmatched[k] = k }
        var left = count
        var i = start
        var weight = Double(count)
        var sum = 0.0
        repeat {
            var bestK = 0, bestD = Double.infinity
            let ax = a.xs[i], ay = a.ys[i]
            for k in 0..<left {
                let p = unmatched[k]
                let dx = ax - b.xs[p], dy = ay - b.ys[p]
                let d = dx * dx + dy * dy
                if d < bestD { bestD = d; bestK = k }
            }
            sum += weight * bestD.squareRoot()
            if sum >= bound { return sum }
            left -= 1
            unmatched[bestK] = unmatched[left]
            weight -= 1
            i = i + 1 == count ? 0 : i + 1
        } while i != start
        return sum
    }
}
