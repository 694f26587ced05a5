/// Where each element of a list stood in an earlier version of it, for versions that are mostly
/// the same elements in the same order: a save that moved, added or removed a few contacts of a
/// directory. A contact that moves puts every one between its old place and its new one a place
/// off, so comparing the versions place by place finds them all different; matched in order,
/// only the moved one is left over.
struct OrderedMatch {
    /// How many elements of either version may be left without a match, by default, for the
    /// versions to count as mostly the same: a save that moves, adds or removes a few contacts.
    static let mostlyTheSame = 64

    /// The earlier place of each element; nil for one left without a match.
    private(set) var places: [Int?]
    /// The elements left without a match (moved here, added, or changed), ascending.
    private(set) var unmatched: [Int] = []
    /// The earlier elements left without a match (moved away, removed, or changed), ascending.
    private(set) var gone: [Int] = []

    /// Matches `count` elements to `earlierCount` earlier ones, going through both in order:
    /// `same(index, place)` says whether element `index` is the one at earlier place `place`.
    /// Where they differ, the earlier one is taken as gone when the next earlier one matches,
    /// the element as new when the next element matches, else both as changed. Nil when more
    /// than `limit` of either are left without a match: the versions are not mostly the same.
    init?(count: Int, earlierCount: Int, limit: Int = mostlyTheSame, same: (Int, Int) -> Bool) {
        places = [Int?](repeating: nil, count: count)
        func matches(_ index: Int, _ place: Int) -> Bool {
            index < count && place < earlierCount && same(index, place)
        }
        var index = 0
        var place = 0
        while index < count || place < earlierCount {
            if matches(index, place) {
                places[index] = place
                index += 1
                place += 1
            } else if place < earlierCount, index >= count || matches(index, place + 1) {
                gone.append(place)
                place += 1
            } else if index < count, place >= earlierCount || matches(index + 1, place) {
                unmatched.append(index)
                index += 1
            } else {
                unmatched.append(index)
                gone.append(place)
                index += 1
                place += 1
            }
            if unmatched.count > limit || gone.count > limit { return nil }
        }
    }
}
