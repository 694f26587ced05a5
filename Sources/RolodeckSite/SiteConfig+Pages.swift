import RolodeckCore

extension SiteConfig {
    /// Whether the site has `groups.html`, and links to it: not when the config hides the
    /// groups, which leaves every group without a page or a vCard.
    var publishesGroups: Bool { shows(.groups) }

    /// Whether the site has the birthday pages and `birthdays.ics`, and links to them: not when
    /// the config hides the birthdays, which would leave them empty.
    var publishesBirthdays: Bool { shows(.birthday) }
}
