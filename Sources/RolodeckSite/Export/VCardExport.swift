import RolodeckCore
import RolodeckPlan

extension Directory {
    /// The vCard content of entry `index`: its contact as its page shows it, without the
    /// fields the config hides, so that no exported file has what no page shows. (Hidden
    /// contacts are not entries at all.)
    public func exportedCard(ofEntry index: Int) -> ExportedCard {
        var contact = entries[index].contact
        let isOrganization = contact.isOrganizationOnly
        if !config.hiddenFields.isEmpty {
            if !config.shows(.salutation) { contact.salutation = "" }
            if !config.shows(.nickname) { contact.nickname = "" }
            // An organization's own card keeps its name: the page shows it as the name.
            if !config.shows(.organization), !isOrganization { contact.organization = "" }
            if !config.shows(.title) { contact.title = "" }
            if !config.shows(.emails) { contact.emails = [] }
            if !config.shows(.phones) { contact.phones = [] }
            if !config.shows(.addresses) { contact.addresses = [] }
            if !config.shows(.urls) { contact.urls = [] }
            if !config.shows(.birthday) { contact.birthday = nil }
            if !config.shows(.notes) { contact.notes = "" }
        }
        // vCard has no place for an age without a birthday; it is not written whether hidden or not.
        contact.age = nil
        contact.groupIDs = []
        return ExportedCard(
            contact: contact, formattedName: entries[index].displayName, categories: cardCategories(ofEntry: index))
    }

    /// The names of entry `index`'s groups, as its vCard lists them (`CATEGORIES`): none when the
    /// site hides groups.
    func cardCategories(ofEntry index: Int) -> [String] {
        guard config.shows(.groups) else { return [] }
        return groupPositions(ofEntry: index).map { groups[Int(entryGroups[$0])].group.name }
    }
}
