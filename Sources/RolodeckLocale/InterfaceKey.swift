/// The fixed pieces of text on the generated site.
public enum InterfaceKey: String, Hashable, Sendable, CaseIterable {
    /// Site title, "Contacts".
    case contacts
    /// "Groups".
    case groups
    /// "Todos".
    case todos
    /// "Search".
    case search
    /// "Search Results".
    case searchResults
    /// The search box's placeholder: what can be searched for.
    case searchPlaceholder
    /// How the search box is used with the keyboard, for screen readers.
    case searchHint
    /// "No contacts found."
    case searchNoResults
    /// "1 contact found".
    case searchResultOne
    /// "{count} contacts found"; the client puts the number in.
    case searchResultsMany
    /// "Show more results".
    case searchShowMore
    /// Shown when the search index cannot be loaded.
    case searchUnavailable
    /// "Group" (one group, labelling the group a search result matched).
    case group
    /// "Skip to content" link for keyboard users.
    case skipToContent
    /// "Jump to section" navigation label.
    case jumpToSection
    /// "Phone".
    case phone
    /// "Email".
    case email
    /// "Address".
    case address
    /// "Birthday".
    case birthday
    /// "Age".
    case age
    /// "Organization".
    case organization
    /// "Title" (job title).
    case jobTitle
    /// "Notes".
    case notes
    /// "Website".
    case website
    /// "Members".
    case members
    /// "Done" (todo state).
    case done
    /// "Open" (todo state).
    case open
    /// "Due" (todo due date).
    case due
    /// "Priority".
    case priority
    /// "High" priority.
    case priorityHigh
    /// "Medium" priority.
    case priorityMedium
    /// "Low" priority.
    case priorityLow
    /// "Contact" (one contact).
    case contact
    /// "Page not found".
    case pageNotFound
    /// "Back to the directory".
    case backToDirectory
    /// Phone/email/address kind "Home".
    case labelHome
    /// Kind "Work".
    case labelWork
    /// Kind "Mobile" (also vCard "cell").
    case labelMobile
    /// Kind "Fax".
    case labelFax
    /// Kind "Pager".
    case labelPager
    /// Kind "Main".
    case labelMain
    /// Kind "Other".
    case labelOther
    /// Label of the site's main navigation, "Site".
    case siteNavigation
    /// "Contact details" (heading for screen readers).
    case contactDetails
    /// "Nickname".
    case nickname
    /// "Reading" (the phonetic name).
    case phoneticName
    /// "Add to contacts": the link to a contact's vCard.
    case addToContacts
    /// The accessible name of a contact's QR code.
    case qrCodeLabel
    /// "Scan with a phone's camera to add this contact", under the QR code.
    case qrCodeHint
    /// The link to every contact's vCards in one file, on the index.
    case downloadAllContacts
    /// The link to a group's members' vCards in one file, on its page.
    case downloadGroupContacts
    /// "No contacts yet."
    case noContacts
    /// "No members yet."
    case noMembers
    /// "No groups yet."
    case noGroups
    /// "Nothing to do."
    case noTodos
    /// "Overdue".
    case overdue
    /// "open" in "3 open · 2 done".
    case openCount
    /// "done" in "3 open · 2 done".
    case doneCount
    /// "Made with Rolodeck".
    case madeWith
    /// "The page you asked for is not in this directory."
    case notFoundExplanation
    /// "Birthdays" (the birthday page and its navigation link).
    case birthdays
    /// "No birthdays yet."
    case noBirthdays
    /// The link to `birthdays.ics`: "Subscribe to the birthday calendar (.ics)".
    case birthdaysCalendar
    /// The link to `todos.ics`: "Todos as a calendar file (.ics)".
    case todosCalendar
    /// "Last updated" before the date in the footer.
    case lastUpdated
    /// A map link's text: "Map".
    case showOnMap
    /// The label of a card's coordinates, whose `geo:` link opens a map app: "Coordinates".
    case openCoordinates
    /// The label of a long list's page links: "Pages".
    case pages
    /// The link to the page before: "Previous page".
    case previousPage
    /// The link to the page after: "Next page".
    case nextPage
    /// The heading of a paged index's list of sections: "Sections".
    case sections
}
