import Mustache
import Testing
@testable import RolodeckCore
@testable import RolodeckPlan
@testable import RolodeckSite

/// Map links for addresses (the provider the config names, the address percent-encoded as one
/// query value) and `geo:` links for a card's coordinates.
@Suite struct MapLinkTests {
    struct EncodingCase: Sendable, CustomTestStringConvertible {
        let query: String
        let encoded: String
        var testDescription: String { query }
    }

    static let encodingCases: [EncodingCase] = [
        EncodingCase(
            query: "Unter den Linden 1, 10117 Berlin", encoded: "Unter%20den%20Linden%201%2C%2010117%20Berlin"
        ),
        EncodingCase(query: "A&B #2 + C/D?e=f", encoded: "A%26B%20%232%20%2B%20C%2FD%3Fe%3Df"),
        EncodingCase(query: "Straße ~_.-", encoded: "Stra%C3%9Fe%20~_.-"),
        EncodingCase(
            query: "서울특별시 중구", encoded: "%EC%84%9C%EC%9A%B8%ED%8A%B9%EB%B3%84%EC%8B%9C%20%EC%A4%91%EA%B5%AC"),
    ]

    @Test(arguments: encodingCases)
    func addressesArePercentEncoded(_ testCase: EncodingCase) {
        #expect(MapLink.percentEncoded(testCase.query) == testCase.encoded)
    }

    @Test func eachProviderHasItsSearch() {
        let query = "Main St 1, Springfield"
        #expect(
            MapLink.url(for: query, provider: .openstreetmap)
                == "https://www.openstreetmap.org/search?query=Main%20St%201%2C%20Springfield")
        #expect(
            MapLink.url(for: query, provider: .google)
                == "https://www.google.com/maps/search/?api=1&query=Main%20St%201%2C%20Springfield")
        #expect(
            MapLink.url(for: query, provider: .apple)
                == "https://maps.apple.com/?address=Main%20St%201%2C%20Springfield")
        #expect(MapLink.url(for: query, provider: .none) == nil)
        #expect(MapLink.url(for: "", provider: .openstreetmap) == nil)
    }

    static func contactPage(_ config: SiteConfig) throws -> MustacheTable {
        var contact = Contact(id: "ann")
        contact.givenName = "Ann"
        contact.addresses = [
            PostalAddress(
                label: "home", street: "Hauptstraße 5\nHinterhaus", postalCode: "10115", city: "Berlin")
        ]
        contact.geo = GeoCoordinate.parse("geo:52.52,13.405")
        let views = ViewBuilder(
            directory: Directory(store: Store(contacts: [contact]), config: config),
            today: PartialDate(year: 2026, month: 1, day: 1))
        return try #require(views.contactPage(0)["contact"] as? MustacheTable)
    }

    @Test func theAddressLinksToTheMapTheConfigNames() throws {
        let contact = try Self.contactPage(SiteConfig())
        let address = try #require((contact["addresses"] as? [MustacheTable])?.first)
        #expect(
            address["mapHref"] as? String
                == "https://www.openstreetmap.org/search?query=Hauptstra%C3%9Fe%205%2C%20Hinterhaus%2C%2010115%20Berlin"
        )
        let geo = try #require(contact["geo"] as? MustacheTable)
        #expect(geo["href"] as? String == "geo:52.52,13.405")
        #expect(contact["hasPlaces"] as? Bool == true)

        var none = SiteConfig()
        none.mapLinks = .none
        let plain = try #require((try Self.contactPage(none)["addresses"] as? [MustacheTable])?.first)
        #expect(plain["mapHref"] == nil)
    }

    @Test func hiddenAddressesHideTheCoordinatesToo() throws {
        var config = SiteConfig()
        config.hiddenFields = [.addresses]
        let contact = try Self.contactPage(config)
        #expect(contact["geo"] == nil)
        #expect(contact["hasPlaces"] as? Bool == false)
    }

    struct GeoCase: Sendable, CustomTestStringConvertible {
        let text: String
        let uri: String?
        var testDescription: String { text }
    }

    static let geoCases: [GeoCase] = [
        GeoCase(text: "geo:46.772673,-71.282945", uri: "geo:46.772673,-71.282945"),
        GeoCase(text: "GEO:51.5237,0.1585;u=35", uri: "geo:51.5237,0.1585"),
        GeoCase(text: "geo:10,20,300", uri: "geo:10,20"),
        GeoCase(text: "37.386013;-122.082932", uri: "geo:37.386013,-122.082932"),
        GeoCase(text: "91;0", uri: nil),
        GeoCase(text: "0;181", uri: nil),
        GeoCase(text: "north;east", uri: nil),
        GeoCase(text: "1e2;3", uri: nil),
        GeoCase(text: "12.;3", uri: nil),
        GeoCase(text: "", uri: nil),
    ]

    @Test(arguments: geoCases)
    func coordinatesAreRead(_ testCase: GeoCase) {
        #expect(GeoCoordinate.parse(testCase.text)?.uri == testCase.uri)
    }
}
