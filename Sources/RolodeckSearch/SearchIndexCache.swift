import Synchronization
import RolodeckCore
import RolodeckPlan

/// What one build of the search index learnt of each contact (its terms and its row), kept for
/// the next build so that only contacts that changed are collected and formatted again.
///
/// `rolodeck watch` keeps one across rebuilds; a whole build has none. A contact's terms and
/// row follow from its contact, slug, display name, group names and the config alone, so a
/// contact is reused when all of those are equal, wherever it now stands in the directory; a
/// run of contacts that all stand where they stood reuses its collected terms as a whole.
public final class SearchIndexCache: Sendable {
    private let state = Mutex(State())

    /// An empty cache.
    public init() {}

    /// One contact's terms, and what they and its row were made from.
    struct Contact: Sendable {
        var slug: String
        var contact: RolodeckCore.Contact
        var displayName: String
        var groupNames: [String]
        /// The run whose builder numbers the contact's terms.
        var run: Int
        /// The contact's terms, each key number × 4 + tier.
        var postings: ArraySlice<UInt32>
    }

    /// The last build's contacts, runs and rows in directory order, and its config.
    struct State: Sendable {
        var config: SiteConfig?
        var contacts: [Contact] = []
        /// Each contact's place in `contacts`, by slug.
        var positions: [String: Int] = [:]
        /// The finished builder of each run of contacts.
        var runs: [SearchTermTable.Builder] = []
        var rows: [[UInt8]] = []

        /// Where the contact kept for `entry` stands, if nothing its terms and row follow from
        /// has changed.
        func reusable(_ entry: Directory.Entry, groupNames: [String]) -> Int? {
            guard let position = positions[entry.slug] else { return nil }
            return matches(position, entry, groupNames: groupNames) ? position : nil
        }

        /// Whether the contact kept at `position` is `entry` unchanged.
        func matches(_ position: Int, _ entry: Directory.Entry, groupNames: [String]) -> Bool {
            guard contacts.indices.contains(position) else { return false }
            let kept = contacts[position]
            return kept.slug == entry.slug && kept.displayName.hasSameBytes(as: entry.displayName)
                && kept.groupNames.hasSameBytes(as: groupNames) && kept.contact == entry.contact
        }

        /// The terms kept at `position`, as the keys and tiers to add again, in one batch.
        func terms(at position: Int, to builder: inout SearchTermTable.Builder) {
            let kept = contacts[position]
            builder.add(postings: kept.postings, of: runs[kept.run])
        }
    }

    /// Takes what the last build kept if it was built with `config`, or nothing; the cache is
    /// empty until `keep` is called.
    func take(for config: SiteConfig) -> State {
        state.withLock { state in
            let kept = state.config == config ? state : State(config: config)
            state = State()
            return kept
        }
    }

    /// Keeps what a build learnt, in place of what the last one kept.
    func keep(_ new: State) {
        state.withLock { $0 = new }
    }
}
