import Mustache
import RolodeckPlan
import RolodeckLocale
import RolodeckSearch

/// The contexts of the pages a long list is split into (`SitePaging`): a paged index's or
/// group's list of sections, each section's pages, and the links between them.
extension ViewBuilder {
    /// The `search` key: the search box's index and client, as seen from a page `root` away
    /// from the site's root; false when there is no index or nothing to find.
    func searchBox(root: String) -> Any {
        guard search != nil, !directory.entries.isEmpty else { return false }
        return ["index": root + SearchIndex.rootReference, "client": root + "search.js"]
    }

    /// The `paging` key of a paged index or group page: its sections with their counts (of
    /// members on a group's page), each linking to its pages in `folder` (relative to the page),
    /// and the jump bar to them.
    func pagedList(
        _ sections: [SectionGroup<Int>], _ paging: ListPaging, folder: String, ofGroup: Bool = false
    ) -> MustacheTable {
        let listed = sections.indices.compactMap { position -> [String: Any]? in
            guard let first = paging.firstPage[position] else { return nil }
            let section = sections[position]
            let pages = paging.pages[first..<(first + paging.pages[first].parts)]
            var entry = label(section.section)
            entry["href"] = folder + pages.first!.name + ".html"
            entry["count"] = section.items.count
            entry["countText"] = countText(section.items.count, ofGroup: ofGroup)
            // A long section's pages, linked by number beside it.
            entry["hasParts"] = pages.count > 1
            entry["parts"] =
                pages.count < 2
                ? [[String: Any]]()
                : pages.map { page in
                    [
                        "number": page.part, "href": folder + page.name + ".html",
                        "label": strings.pageNumber(page.part, of: page.parts),
                    ] as [String: Any]
                }
            return entry
        }
        return MustacheTable([
            "sections": listed,
            "jumpBar": jumpBar(sections, paging, folder: folder, current: nil),
        ])
    }

    /// The context of page `number` of the paged index: one section's contacts, or a part of
    /// them, with the search box, the jump bar to the other sections and the links to the pages
    /// before and after.
    func sectionPage(_ number: Int) -> MustacheTable {
        var context = listPage(
            directory.sections, paging.index, number, root: "../",
            parent: ["name": directory.config.title, "href": "../index.html"])
        context["search"] = searchBox(root: "../")
        context["group"] = false
        return MustacheTable(context)
    }

    /// The context of page `number` of the paged page of group `index`, in the group's folder.
    func groupSectionPage(_ index: Int, _ number: Int) -> MustacheTable {
        let entry = directory.groups[index]
        var context = listPage(
            entry.sections, paging.groups[index], number, root: "../../",
            parent: ["name": entry.group.name, "href": "../\(entry.slug).html"], of: entry.group.name)
        context["search"] = false
        context["group"] = ["name": entry.group.name]
        return MustacheTable(context)
    }

    /// "12 contacts", or on a group's pages "12 members", as the group's page counts them.
    private func countText(_ count: Int, ofGroup: Bool) -> String {
        ofGroup ? strings.memberCount(count) : strings.contactCount(count)
    }

    /// What every page of a paged list has: its section's heading and count, its contacts, the
    /// jump bar, the pager, and `parent`, the page that lists the sections; `owner` names the
    /// group the list is of.
    private func listPage(
        _ sections: [SectionGroup<Int>], _ paging: ListPaging, _ number: Int, root: String,
        parent: [String: Any], of owner: String? = nil
    ) -> [String: Any] {
        let page = paging.pages[number]
        let section = sections[page.section]
        let heading = label(section.section)
        var title = section.section.label
        if page.parts > 1 { title += " (\(strings.pageNumber(page.part, of: page.parts)))" }
        // A group's section is titled with the group's name: "Tennis: A".
        if let owner { title = "\(owner): \(title)" }
        var context = common(kind: "section", title: title, root: root)
        context["heading"] = heading
        context["countText"] = countText(section.items.count, ofGroup: owner != nil)
        context["part"] = page.parts > 1 ? strings.pageNumber(page.part, of: page.parts) : false
        context["sections"] = self.sections(
            [SectionGroup(section: section.section, items: Array(section.items[page.items]))], root: root)
        context["empty"] = false
        // The page is one section, headed by its own h1: its list gets no second heading.
        context["flat"] = true
        context["parent"] = parent
        context["jumpBar"] = jumpBar(sections, paging, folder: "", current: page.section)
        var pager: [String: Any] = ["previous": false, "next": false, "position": context["part"]!]
        if number > 0 { pager["previous"] = pagerLink(sections, paging.pages[number - 1]) }
        if number + 1 < paging.pages.count { pager["next"] = pagerLink(sections, paging.pages[number + 1]) }
        context["pager"] = pager
        return context
    }

    /// The jump bar of a paged list: a link to each section's first page in `folder`, the one
    /// of section `current` marked.
    private func jumpBar(_ sections: [SectionGroup<Int>], _ paging: ListPaging, folder: String, current: Int?)
        -> [[String: Any]]
    {
        sections.indices.compactMap { position in
            guard let first = paging.firstPage[position] else { return nil }
            var link = label(sections[position].section)
            link["href"] = folder + paging.pages[first].name + ".html"
            link["current"] = position == current
            return link
        }
    }

    /// A previous or next link to `page`, which is in the same folder as the page linking to it.
    private func pagerLink(_ sections: [SectionGroup<Int>], _ page: ListPaging.Page) -> [String: Any] {
        var link = label(sections[page.section].section)
        link["href"] = page.name + ".html"
        link["part"] = page.parts > 1 ? strings.pageNumber(page.part, of: page.parts) : false
        return link
    }

    /// A section's label, its anchor and the language its label is written in.
    private func label(_ section: DirectorySection) -> [String: Any] {
        ["label": section.label, "anchor": section.anchor, "lang": section.script.headingLanguage ?? ""]
    }

    /// The `pager` key of todo page `number`: links to the pages before and after, and where
    /// the page is; false when the todos are one page.
    func todoPager(_ number: Int) -> Any {
        numberedPager(number, of: paging.todos.pages.count, path: TodoPaging.path(ofPage:))
    }

    /// The `pager` key of page `number` of `count` numbered pages named by `path`: links to the
    /// pages before and after, labelled with their numbers, and where the page is; false for one.
    func numberedPager(_ number: Int, of count: Int, path: (Int) -> String) -> Any {
        guard count > 1 else { return false }
        /// A link to page `other`, labelled with its number.
        func link(_ other: Int) -> [String: Any] {
            [
                "href": path(other), "label": strings.pageNumber(other + 1, of: count), "part": false,
                "lang": "",
            ]
        }
        return [
            "previous": number > 0 ? link(number - 1) : false,
            "next": number + 1 < count ? link(number + 1) : false,
            "position": strings.pageNumber(number + 1, of: count),
        ] as [String: Any]
    }
}
