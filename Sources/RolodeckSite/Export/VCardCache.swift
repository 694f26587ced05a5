import RolodeckCore
import Synchronization

/// The vCards a rebuild made, kept so that the next one writes anew only the cards that changed.
///
/// `rolodeck watch` keeps one across rebuilds; a whole build has none. `contacts.vcf` and every
/// group's file are their members' cards one after the other, so a save that changes one
/// contact rewrites them whole: making all 100,000 cards of a large store again took half a
/// second of every save. A card is a function of its entry's contact, display name and group
/// names, the config (which fields it hides) and the writer's `REV` alone, so a kept card is
/// reused when all of them are equal. The contact is compared as the directory holds it, not as
/// the card shows it: an unchanged contact is the very same value, which compares at once.
///
/// A renderer takes a ticket when it is made (`ticket`), and the cache keeps the cards of the
/// newest renderer that made them (`NewestKept`).
public final class VCardCache: Sendable {
    /// What one entry's card is made from.
    struct Source: Sendable, Equatable {
        /// The entry's contact, with the fields the card leaves out.
        var contact: Contact
        /// Its display name.
        var formattedName: String
        /// Its groups' names, as the card lists them.
        var categories: [String]

        /// Whether the card is made from the same, text byte for byte (`String.hasSameBytes`).
        static func == (lhs: Source, rhs: Source) -> Bool {
            lhs.contact == rhs.contact && lhs.formattedName.hasSameBytes(as: rhs.formattedName)
                && lhs.categories.hasSameBytes(as: rhs.categories)
        }
    }

    /// The cards of one rebuild, in directory order.
    struct Cards: Sendable {
        /// The `REV` the cards were written with.
        var revision: String?
        /// The config they were made with.
        var config: SiteConfig
        /// The directory's groups they were made with, whose names the cards list.
        var groups: [Group]
        /// What each card was made from.
        var sources: [Source]
        /// Each card's bytes, without the contact's photo.
        var bytes: [[UInt8]]
    }

    private let kept = NewestKept<Cards>()

    /// An empty cache.
    public init() {}

    /// A number for a renderer made now, higher than those of every renderer made before.
    func ticket() -> Int { kept.ticket() }

    /// The cards kept, written with `revision` for a site of `config`, for the renderer given
    /// `ticket`; nil when there are none. Unless a newer renderer kept them, the cache is left
    /// empty (`NewestKept.take`).
    func take(revision: String?, config: SiteConfig, ticket: Int) -> Cards? {
        kept.take(ticket: ticket) { $0.revision == revision && $0.config == config }
    }

    /// Keeps `cards`, made by the renderer given `ticket`, for the next rebuild in place of
    /// what was kept, unless a newer renderer kept those or took them: the cards a renderer made
    /// off the rebuilds' path, for an output found up to date, never take the place of those a
    /// save made meanwhile.
    func keep(_ cards: Cards, ticket: Int) {
        kept.keep(cards, ticket: ticket)
    }
}

/// Every entry's card without its photo, made once per renderer and only when a file needs it.
final class EntryCards: Sendable {
    private let cards = Mutex<(all: [[UInt8]], changed: [Int]?)?>(nil)

    /// The cards, made by `make` on the first call, with the entries whose cards are known to
    /// differ from those the rebuild before made (nil when that is not known).
    func all(_ make: () -> (all: [[UInt8]], changed: [Int]?)) -> [[UInt8]] {
        cards.withLock { cards in
            if let cards { return cards.all }
            let made = make()
            cards = made
            return made.all
        }
    }

    /// The entries whose cards differ from those the rebuild before made, ascending; nil when
    /// that is not known, or the cards are not made yet.
    var changed: [Int]? { cards.withLock { $0?.changed } }

    /// Lets go of the cards (a whole build, once every file that joins them is written).
    func release() {
        cards.withLock { $0 = nil }
    }
}
