import Mustache
import RolodeckCore
import RolodeckPlan
import RolodeckSearch
import RolodeckLocale
import Synchronization

/// What a rendered site was made from, kept by watch to tell which pages a change affects.
public struct SiteSnapshot: Sendable {
    /// The settings.
    public var config: SiteConfig
    /// The date ages and overdue todos were computed for.
    var today: PartialDate
    /// The store's last change, as every page's footer and the calendars show it.
    var lastUpdated: PartialDate?
    /// The planned directory.
    public var directory: Directory
    /// The compiled theme.
    var theme: Theme
    /// The site's own template files by file name, as read.
    var siteTemplates: [String: [UInt8]]
    /// The search index written with the pages.
    public internal(set) var search: SearchIndex
    /// The contacts' list rows, by entry.
    var rows: ChunkedArray<RowData>
    /// How the lists were paged.
    var paging: SitePaging
    /// The files of the photos the contacts show, each once, in digest order.
    var photoFiles: [SitePhotos.Files]
    /// How many contacts show each photo, by digest: a save that patches the directory updates
    /// the counts of the entries it changed.
    var photoCounts: [String: Int]

    /// Whether the site writes any photo's files.
    public var writesPhotos: Bool { !photoFiles.isEmpty }

    /// A snapshot of what `renderer` renders, with `config`, the site's `templates` and `theme`.
    public init(
        config: SiteConfig, renderer: SiteRenderer, theme: Theme, siteTemplates: [String: [UInt8]]
    ) {
        self.config = config
        self.today = renderer.today
        self.lastUpdated = renderer.lastUpdated
        self.directory = renderer.directory
        self.theme = theme
        self.siteTemplates = siteTemplates
        self.search = renderer.search
        self.rows = renderer.views.rows
        self.paging = renderer.paging
        self.photoFiles = renderer.photoFiles
        self.photoCounts = renderer.photoCounts
    }
}

/// Which pages of a site a change of its input touches: the rules that let watch re-render a
/// few pages and still write exactly what a whole build would.
///
/// A page is a function of its template (and the templates that template reaches) and its
/// context. Each rule below names what a page's context is made of, as `ViewBuilder` builds it;
/// when none of that changed and none of its templates did, the page's bytes cannot have changed:
///
/// - every page: the config, today, the store's last change, and `site` with its three counts (only for pages whose
///   templates name a count);
/// - a contact page: the contact, its slug and display name, and the names and slugs of its
///   groups;
/// - `index.html`: the sections and, for every listed contact, its row (the contact, slug and
///   display name);
/// - `groups.html`: every group, its slug and member count;
/// - a group page: the group, slug, member count, its sections and its members' rows;
/// - a page of a group's paged list (`groups/<slug>/…`): what the group's page shows when it
///   is not paged, for its jump bar and pager name the other sections; the pages themselves
///   follow from the sections and `pageSize`, which is config;
/// - a page of the paged index (`sections/…`): the sections (headings and contacts, for its
///   jump bar and pager) and the rows of its own part of a section;
/// - `todos.html` and its later pages: every todo with its place, subtasks and linked contact;
/// - `404.html`: whether there is anything to search (its search box names the index's root,
///   not its version, like the index and section pages');
/// - `birthdays.html`, its later pages and `birthdays.ics`: every contact with a birthday, in order,
///   and of each its birthday, id, display name and what its row on the page shows (name,
///   language, link, avatar);
/// - `todos.ics`: every todo with its place and parent, as `todos.html`;
/// - a file of the search index: its bytes (the index is built or patched beside the pages, and
///   compared piece by piece); no page names its version, so no page changes with it;
/// - a static file: its bytes;
/// - a contact's vCard: the contact, its display name and its groups' names (no slug, no
///   template); a group's vCard: its members in order and their vCards; `contacts.vcf`: the
///   sections' contacts in order and their vCards;
/// - a photo or its thumbnail: nothing; its name is its bytes' digest, so a path that was
///   written before holds the same bytes (a new one is new to the site, and written as such).
///
/// `ViewBuilder` and these rules change together; the tests compare watched sites with whole
/// builds after every kind of edit, and fail when a rule misses a dependency.
public enum PageDependencies {
    /// Those of `pages` of `renderer` (planned from `new`) whose bytes may differ from those
    /// rendered from `old`, in the order given. Pages new to the site are included. Only the
    /// search index's files wait for it to be built.
    ///
    /// `changedEntries`, when the new directory was patched from the old one
    /// (`Directory.patching`), names the entries that changed; the others are not compared.
    /// `rows`, made for the same two directories and `changedEntries`, is the comparison of
    /// the contacts' rows another weighing of the save made already.
    public static func changedPages(
        from old: SiteSnapshot, to new: SiteSnapshot, renderer: SiteRenderer, among pages: [SitePage],
        changedEntries: [Int]? = nil, rows weighed: RowWeighing? = nil
    ) -> [SitePage] {
        if old.config != new.config || old.today != new.today || old.lastUpdated != new.lastUpdated {
            return pages
        }
        let newDirectory = new.directory
        let templates = changedTemplates(old.siteTemplates, new.siteTemplates)
        let countNames = changedCounts(old.directory, new.directory)
        // Whether each template is touched, once weighed: finding what a template reaches walks
        // its tree, and there is a page of it for every section and group.
        var touchedTemplates: [String: Bool] = [:]
        func touched(_ template: String) -> Bool {
            if let known = touchedTemplates[template] { return known }
            let found = Self.touched(template, old, new, templates: templates, countNames: countNames)
            touchedTemplates[template] = found
            return found
        }
        let touchedContacts = touched(SiteRenderer.template(of: .contact(0))!)
        let touchedGroups = touched(SiteRenderer.template(of: .group(0))!)
        let touchedGroupSections = touched(SiteRenderer.template(of: .groupSection(0, 0))!)
        let rows =
            weighed?.rows
            ?? RowChanges(old: old.directory, new: new.directory, changedEntries: changedEntries)
        let relinked = changedGroupLinks(old.directory, new.directory)
        // The groups (by position) that list a contact whose row changed, when the few such
        // contacts are known: a patched directory keeps every contact's groups, so a group
        // lists one of them when it is among that contact's groups. (Else each group's members
        // are looked at.)
        let groupsOfChangedRows = rows.changedList.map { list in
            Set(
                list.flatMap {
                    newDirectory.groupPositions(ofEntry: $0).map { Int(newDirectory.entryGroups[$0]) }
                })
        }
        func listsChangedRow(_ index: Int, _ entry: Directory.GroupEntry) -> Bool {
            if let groupsOfChangedRows { return groupsOfChangedRows.contains(index) }
            return entry.sections.contains { rows.anyChanged(in: $0.items[...]) }
        }
        // The birthday pages (by number) that changed; nil when any may have.
        let changedBirthdayPages: Set<Int>? =
            rows.aligned
            ? (sameBirthdays(old, new, rows) ? [] : nil) : Self.changedBirthdayPages(old, new, rows)
        // Asked only of the index's files, the only ones that wait for it.
        lazy var searchChanged = old.search.version != new.search.version
        lazy var newSearchFiles = new.search.files
        lazy var oldSearch: [String: [UInt8]] = {
            var files: [String: [UInt8]] = [:]
            for file in old.search.files { files[file.path] = file.bytes }
            return files
        }()
        // A patched directory keeps every section, group and id of the old one: comparing
        // them would look at the id of every contact, for each group again.
        func sameSections(_ old: [SectionGroup<Int>], _ new: [SectionGroup<Int>]) -> Bool {
            changedEntries != nil || Self.sameSections(old, new, rows)
        }
        lazy var sectionsSame = sameSections(old.directory.sections, new.directory.sections)
        // Whether every section page has the same section, part, count of parts and name as
        // before, the sections the same headings: then its jump bar and pager are the same.
        lazy var sectionPagesLaidOutAlike =
            old.paging.index.pages.elementsEqual(renderer.paging.index.pages) { left, right in
                left.section == right.section && left.part == right.part && left.parts == right.parts
                    && left.name == right.name
            }
            && old.directory.sections.elementsEqual(new.directory.sections) { $0.section == $1.section }
        lazy var todosSame = sameTodos(old.directory, new.directory, rows)
        // A patched directory has the very groups of the one it was patched from: a group's
        // pages then change only when it lists a contact whose row changed.
        let sameGroupArray = Self.sameStorage(old.directory.groups, new.directory.groups)
        // Whether each group's page changed, once weighed.
        var groupChanged = [Bool?](repeating: nil, count: new.directory.groups.count)
        return pages.filter { page in
            switch page {
            case .contact: if touchedContacts { return true }
            case .group: if touchedGroups { return true }
            case .groupSection: if touchedGroupSections { return true }
            default: if let template = SiteRenderer.template(of: page), touched(template) { return true }
            }
            switch page {
            case .asset(let path):
                return old.theme.assets[path] != new.theme.assets[path]
            case .search(let index):
                let file = newSearchFiles[index]
                return searchChanged && oldSearch[file.path] != file.bytes
            case .index:
                return rows.anyChanged || !sectionsSame
            case .section(let number):
                // A section page shows its part of a section's rows, the section's count and, in
                // its jump bar and pager, the other sections. When a contact moved, the sections
                // differ, but most of their pages show what they showed.
                let page = renderer.paging.index.pages[number]
                let section = new.directory.sections[page.section], items = section.items[page.items]
                if rows.anyChanged(in: items) { return true }
                if sectionsSame { return false }
                guard sectionPagesLaidOutAlike else { return true }
                let oldPage = old.paging.index.pages[number]
                let oldSection = old.directory.sections[oldPage.section]
                return oldSection.items.count != section.items.count
                    || !rows.sameEntries(oldSection.items[oldPage.items], items)
            case .groups:
                return !sameGroupArray
                    && !old.directory.groups.elementsEqual(new.directory.groups) { left, right in
                        left.group == right.group && left.slug == right.slug
                            && left.memberCount == right.memberCount
                    }
            case .todos, .todosPage, .todosCalendar:
                return !todosSame
            case .birthdays:
                return changedBirthdayPages?.contains(0) ?? true
            case .birthdaysPage(let number):
                return changedBirthdayPages?.contains(number) ?? true
            case .birthdaysCalendar:
                // It names every contact with a birthday, as the pages do.
                return changedBirthdayPages.map { !$0.isEmpty } ?? true
            case .notFound:
                // Its search box is there when there is anything to find.
                return old.directory.entries.isEmpty != new.directory.entries.isEmpty
            case .contact(let index):
                // An unchanged contact has the same group ids; their names or slugs may differ.
                return rows.changed(index)
                    || (!relinked.isEmpty
                        && new.directory.entries[index].contact.groupIDs.contains(where: relinked.contains))
            case .group(let index), .groupSection(let index, _):
                // A group's section pages show what its page shows when it is not paged; it is
                // weighed once for them all.
                if let known = groupChanged[index] { return known }
                if sameGroupArray, let groupsOfChangedRows { return groupsOfChangedRows.contains(index) }
                let entry = new.directory.groups[index]
                guard let position = old.directory.groupIndex[entry.group.id] else {
                    groupChanged[index] = true
                    return true
                }
                let before = old.directory.groups[position]
                let changed =
                    before.group != entry.group || before.slug != entry.slug
                    || before.memberCount != entry.memberCount
                    || !sameSections(before.sections, entry.sections)
                    || listsChangedRow(index, entry)
                groupChanged[index] = changed
                return changed
            case .contactCard(let index):
                return rows.changed(index) || relinks(new.directory, index, relinked)
            case .groupCard(let index):
                // The same groups have the same links (`relinked` is empty).
                if sameGroupArray, let groupsOfChangedRows { return groupsOfChangedRows.contains(index) }
                let entry = new.directory.groups[index]
                guard let position = old.directory.groupIndex[entry.group.id] else { return true }
                let before = old.directory.groups[position]
                return before.slug != entry.slug
                    || !sameSections(before.sections, entry.sections)
                    || listsChangedRow(index, entry)
                    || (!relinked.isEmpty
                        && entry.sections.contains { section in
                            section.items.contains { relinks(new.directory, $0, relinked) }
                        })
            case .photo, .photoThumbnail:
                return false
            case .directoryCard:
                return rows.anyChanged || !relinked.isEmpty
                    || !sectionsSame
            }
        }
    }

    /// Whether a change of `templates` or of the counts named `countNames` reaches pages made
    /// from `template`.
    private static func touched(
        _ template: String, _ old: SiteSnapshot, _ new: SiteSnapshot, templates: Set<String>,
        countNames: Set<String>
    ) -> Bool {
        let reached = [old.theme, new.theme].compactMap { $0.templates.usage(of: template) }
        return reached.count < 2
            || reached.contains {
                !$0.templates.isDisjoint(with: templates) || !$0.names.isDisjoint(with: countNames)
            }
    }

    /// The entries whose pages (page and vCard) are to be compared, when the rules can list
    /// those of the others without weighing them: neither the config, the date, the store's
    /// last change nor any template changed, and
    /// - the directory was patched from the old one (`Directory.patching`, which keeps every
    ///   entry, group and slug in place; `changedEntries` names the entries that changed), or
    /// - it was planned anew (a contact renamed, which moves it, or added): the entries whose
    ///   row changed (matched to the old ones by id) or whose groups' links did are compared,
    ///   for no other contact's page or vCard shows anything else, unless the contact page
    ///   shows a count that changed.
    ///
    /// Nil when every page is to be compared. A save of one contact in a large directory then
    /// weighs the rules of a few thousand pages, not of two for every contact; the pages left
    /// out are at the same paths as before (their rows, slugs included, are the same), so the
    /// output has them. `rows`, made for the same two directories and `changedEntries`, keeps
    /// the comparison of the rows for the save's other weighings.
    public static func entriesToCompare(
        from old: SiteSnapshot, to new: SiteSnapshot, changedEntries: [Int]?, rows weighed: RowWeighing? = nil
    ) -> [Int]? {
        guard old.config == new.config, old.today == new.today, old.lastUpdated == new.lastUpdated,
            changedTemplates(old.siteTemplates, new.siteTemplates).isEmpty
        else { return nil }
        if let changedEntries { return changedEntries }
        // A count that changed (a contact added) reaches every contact's page if it shows it.
        let countNames = changedCounts(old.directory, new.directory)
        let contactTemplate = SiteRenderer.template(of: .contact(0))!
        guard !touched(contactTemplate, old, new, templates: [], countNames: countNames) else { return nil }
        let rows = weighed?.rows ?? RowChanges(old: old.directory, new: new.directory, changedEntries: nil)
        let relinked = changedGroupLinks(old.directory, new.directory)
        let directory = new.directory
        return directory.entries.indices.filter { rows.changed($0) || relinks(directory, $0, relinked) }
    }

    /// Whether entry `index` is in one of the `relinked` groups, whose names its vCard lists.
    private static func relinks(_ directory: Directory, _ index: Int, _ relinked: Set<String>) -> Bool {
        !relinked.isEmpty && directory.entries[index].contact.groupIDs.contains(where: relinked.contains)
    }

    /// The names of the templates whose source changed, appeared or went away.
    static func changedTemplates(_ old: [String: [UInt8]], _ new: [String: [UInt8]]) -> Set<String> {
        var names: Set<String> = []
        for file in Set(old.keys).union(new.keys) where old[file] != new[file] {
            guard file.hasSuffix(Theme.templateExtension) else { continue }
            names.insert(String(file.dropLast(Theme.templateExtension.count)))
        }
        return names
    }

    /// The names under `site` of the counts that changed.
    private static func changedCounts(_ old: Directory, _ new: Directory) -> Set<String> {
        var names: Set<String> = []
        if old.entries.count != new.entries.count { names.insert("contactCount") }
        if old.groups.count != new.groups.count { names.insert("groupCount") }
        if old.todos.count != new.todos.count { names.insert("todoCount") }
        return names
    }

    /// The ids of the groups whose link on a contact page (name and slug) changed, came or went.
    private static func changedGroupLinks(_ old: Directory, _ new: Directory) -> Set<String> {
        // A patched directory has the very groups of the one it was patched from.
        if sameStorage(old.groups, new.groups) { return [] }
        var ids: Set<String> = []
        for id in Set(old.groupIndex.keys).union(new.groupIndex.keys) {
            let before = old.groupIndex[id].map { old.groups[$0] }
            let after = new.groupIndex[id].map { new.groups[$0] }
            if !(before?.group.name).hasSameBytes(as: after?.group.name) || before?.slug != after?.slug {
                ids.insert(id)
            }
        }
        return ids
    }

    /// Whether two lists of sections have the same headings and the same contacts, in order
    /// (`old`'s entries of the old directory, `new`'s of the new one, as `rows` matched them).
    private static func sameSections(
        _ old: [SectionGroup<Int>], _ new: [SectionGroup<Int>], _ rows: RowChanges
    ) -> Bool {
        old.elementsEqual(new) { left, right in
            left.section == right.section && rows.sameEntries(left.items[...], right.items[...])
        }
    }

    /// Whether the birthday pages and calendar show the same: the same contacts in the same
    /// places, and every contact that changed neither has nor had a birthday, or shows there as
    /// it did (a new phone number is not on the birthday page).
    private static func sameBirthdays(_ old: SiteSnapshot, _ new: SiteSnapshot, _ rows: RowChanges) -> Bool {
        guard rows.aligned else { return false }
        for index in new.directory.entries.indices where rows.changed(index) {
            let before = old.directory.entries[index]
            let after = new.directory.entries[index]
            if before.contact.birthday == nil, after.contact.birthday == nil { continue }
            guard before.contact.birthday == after.contact.birthday,
                before.displayName.hasSameBytes(as: after.displayName),
                old.rows[index].showsAlikeOnBirthdayPages(new.rows[index])
            else { return false }
        }
        return true
    }

    /// The birthday pages (by number, from 0) that show a contact differently, for directories
    /// whose contacts do not all stand where they stood (one moved, came or went: a name
    /// changed); nil when the pages may all have changed. The pages list the birthday schedule,
    /// the contacts with a birthday by the day it comes round, those of a day in the
    /// directory's order: when it lists the same contacts on the same days in the same order
    /// (which a contact that moves changes only when it shares its day with another, and one
    /// without a birthday never), a page changed when it shows one of them differently. A
    /// renamed contact rewrote every birthday page and the calendar (37 files at 100,000
    /// contacts); now its page and the calendar. When the schedule is as long and paged alike,
    /// a page that lists another contact or day at some place changed, and the others did not
    /// (their pagers and the count are the same): a renamed contact that moved among those
    /// born on its day changes the page of that day alone.
    private static func changedBirthdayPages(_ old: SiteSnapshot, _ new: SiteSnapshot, _ rows: RowChanges)
        -> Set<Int>?
    {
        let before = old.paging.birthdaySchedule.occurrences
        let after = new.paging.birthdaySchedule.occurrences
        guard before.count == after.count, old.paging.birthdays == new.paging.birthdays else { return nil }
        let (oldEntries, newEntries) = (old.directory.entries, new.directory.entries)
        var changed: Set<Int> = []
        for (page, positions) in new.paging.birthdays.enumerated() {
            for position in positions {
                let (was, now) = (before[position], after[position])
                guard rows.isEntry(was.entry, now: now.entry),
                    was.birthday == now.birthday, was.date == now.date, was.turns == now.turns
                else {
                    changed.insert(page)
                    break
                }
                // An entry whose row is the same shows the same here.
                if rows.changed(now.entry),
                    !oldEntries[was.entry].displayName.hasSameBytes(as: newEntries[now.entry].displayName)
                        || !old.rows[was.entry].showsAlikeOnBirthdayPages(new.rows[now.entry])
                {
                    changed.insert(page)
                }
            }
        }
        return changed
    }

    /// Whether the todo page shows the same todos the same way.
    /// Whether two arrays are one: the same elements in the same memory, as a patched
    /// directory keeps what it did not change.
    private static func sameStorage<Element>(_ left: [Element], _ right: [Element]) -> Bool {
        left.count == right.count
            && left.withUnsafeBufferPointer({ $0.baseAddress })
                == right.withUnsafeBufferPointer({ $0.baseAddress })
    }

    private static func sameTodos(_ old: Directory, _ new: Directory, _ rows: RowChanges) -> Bool {
        // A patched directory has the very todos of the one it was patched from, linking the
        // same contacts: only those contacts' rows can differ.
        if let changed = rows.changedList, sameStorage(old.todos, new.todos) {
            guard !changed.isEmpty else { return true }
            let changedSet = Set(changed)
            return new.todos.withUnsafeBufferPointer { todos in
                !todos.indices.contains { todos[$0].contact.map(changedSet.contains) ?? false }
            }
        }
        return old.todos.elementsEqual(new.todos) { left, right in
            guard left.todo == right.todo, left.parent == right.parent, left.subtasks == right.subtasks else {
                return false
            }
            switch (left.contact, right.contact) {
            case (nil, nil): return true
            case (let before?, let after?): return RowChanges.sameRow(old.entries[before], new.entries[after])
            default: return false
            }
        }
    }
}

extension PageDependencies {
    /// The rows of a save's two directories, compared once for all the weighings of the save:
    /// which entries to compare, then which pages and which search files changed. Comparing
    /// them matches 100,000 entries when contacts moved.
    public final class RowWeighing: Sendable {
        private let old: Directory, new: Directory
        private let changedEntries: [Int]?
        private let made = Mutex<RowChanges?>(nil)

        /// The rows of `old`'s contacts against `new`'s, compared when first asked for; only
        /// the `changedEntries` when `new` was patched from `old`.
        public init(old: Directory, new: Directory, changedEntries: [Int]?) {
            self.old = old
            self.new = new
            self.changedEntries = changedEntries
        }

        /// The comparison, made on the first call.
        fileprivate var rows: RowChanges {
            made.withLock { made in
                if let made { return made }
                let rows = RowChanges(old: old, new: new, changedEntries: changedEntries)
                made = rows
                return rows
            }
        }
    }
}

/// Which contacts' rows (what lists and links show of a contact) changed, by position in the
/// new directory.
private struct RowChanges: Sendable {
    private let changedRows: [Bool]
    /// The entries whose row changed, ascending, when the directory was patched (a few); nil
    /// when not known.
    let changedList: [Int]?
    /// Whether any contact's row changed, or a contact came or went.
    let anyChanged: Bool
    /// Whether every contact stands where it stood: none came, went or moved.
    let aligned: Bool
    /// Each new entry's position in the old directory, by its contact's id (nil for one new
    /// to it); nil when every entry stands where it stood (the directory was patched).
    private let oldPositions: [Int32]?

    /// Compares the rows of `old`'s contacts with those of `new`'s: only the `changedEntries`
    /// when `new` was patched from `old`, which keeps every other entry as it was.
    init(old: Directory, new: Directory, changedEntries: [Int]?) {
        if let changedEntries {
            var changedRows = [Bool](repeating: false, count: new.entries.count)
            for index in changedEntries {
                changedRows[index] = !RowChanges.sameRow(old.entries[index], new.entries[index])
            }
            self.changedRows = changedRows
            let list = changedEntries.filter { changedRows[$0] }
            changedList = list
            aligned = true
            oldPositions = nil
            anyChanged = !list.isEmpty
            return
        }
        // Contacts mostly keep their place, or stand a place off when one moved past them: they
        // are matched in order, and only those left over are looked up by id.
        let match = OrderedMatch(count: new.entries.count, earlierCount: old.entries.count) {
            new.entries[$0].contact.id == old.entries[$1].contact.id
        }
        var oldIndex: [String: Int]?
        func oldPosition(of id: String) -> Int? {
            if oldIndex == nil {
                var byID: [String: Int] = [:]
                if let match {
                    for position in match.gone { byID[old.entries[position].contact.id] = position }
                } else {
                    byID.reserveCapacity(old.entries.count)
                    for (position, entry) in old.entries.enumerated() { byID[entry.contact.id] = position }
                }
                oldIndex = byID
            }
            return oldIndex![id]
        }
        var aligned = old.entries.count == new.entries.count
        var oldPositions = [Int32](repeating: -1, count: new.entries.count)
        // Entries are read where they lie, not copied: a copy retains every field.
        let changedRows = new.entries.indices.map { index -> Bool in
            // Without a match (too many moved), only a contact at the same place is matched.
            let samePlace =
                index < old.entries.count && old.entries[index].contact.id == new.entries[index].contact.id
            let place = match.map { $0.places[index] } ?? (samePlace ? index : nil)
            if let place, place == index {
                oldPositions[index] = Int32(index)
                return !RowChanges.sameRow(old.entries[index], new.entries[index])
            }
            aligned = false
            guard let before = place ?? oldPosition(of: new.entries[index].contact.id) else { return true }
            oldPositions[index] = Int32(before)
            return !RowChanges.sameRow(old.entries[before], new.entries[index])
        }
        self.oldPositions = oldPositions
        self.changedRows = changedRows
        self.aligned = aligned
        changedList = nil
        anyChanged = old.entries.count != new.entries.count || changedRows.contains(true)
    }

    /// Whether the contact at `index` in the new directory is new or shows differently.
    func changed(_ index: Int) -> Bool { changedRows[index] }

    /// Whether any of `items` (entries of the new directory) is new or shows differently:
    /// looked up among the few that do when they are known, else item by item.
    func anyChanged(in items: ArraySlice<Int>) -> Bool {
        if let changedList { return changedList.contains { items.contains($0) } }
        return changedRows.withUnsafeBufferPointer { changed in items.contains { changed[$0] } }
    }

    /// Whether `old`, entries of the old directory, and `new`, of the new one, are the same
    /// contacts (by id) in the same order.
    func sameEntries(_ old: ArraySlice<Int>, _ new: ArraySlice<Int>) -> Bool {
        old.elementsEqual(new) { isEntry($0, now: $1) }
    }

    /// Whether entry `old` of the old directory is entry `new` of the new one (by id).
    func isEntry(_ old: Int, now new: Int) -> Bool {
        oldPositions.map { Int($0[new]) == old } ?? (old == new)
    }

    /// Whether two entries show the same: the whole contact, its slug and its name, byte for byte.
    static func sameRow(_ left: borrowing Directory.Entry, _ right: borrowing Directory.Entry) -> Bool {
        left.slug == right.slug && left.displayName.hasSameBytes(as: right.displayName)
            && left.contact == right.contact
    }
}
