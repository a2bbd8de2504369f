// SPDX-License-Identifier: Apache-2.0

import Foundation

/// config/schemas/github-user.json as a Codable struct. Input keys are GitHub's snake_case (`InputKeys`); output
/// keys are the property names (the synthesised `CodingKeys`), so a decode/encode round trip maps like
/// TransformServer's model form. Optionals left `nil` are omitted on encode; numbers and bools default to 0/false.
struct GithubUser: Codable {
    var login: String
    var userID: UInt64
    var nodeID: String?
    var avatarURL: URL?
    var gravatarID: String?
    var url: URL?
    var htmlURL: URL?
    var followersURL: URL?
    var followingURL: String?
    var gistsURL: String?
    var starredURL: String?
    var subscriptionsURL: URL?
    var organizationsURL: URL?
    var reposURL: URL?
    var eventsURL: String?
    var receivedEventsURL: URL?
    var type: String?
    var siteAdmin: Bool
    var name: String?
    var company: String?
    var blog: String?
    var location: String?
    var email: String?
    var hireable: Bool
    var bio: String?
    var publicRepos: UInt32
    var publicGists: UInt32
    var followers: UInt32
    var following: UInt32
    var createdAt: Date?
    var updatedAt: Date?

    /// The schema's `key`s.
    enum InputKeys: String, CodingKey {
        case login
        case userID = "id"
        case nodeID = "node_id"
        case avatarURL = "avatar_url"
        case gravatarID = "gravatar_id"
        case url
        case htmlURL = "html_url"
        case followersURL = "followers_url"
        case followingURL = "following_url"
        case gistsURL = "gists_url"
        case starredURL = "starred_url"
        case subscriptionsURL = "subscriptions_url"
        case organizationsURL = "organizations_url"
        case reposURL = "repos_url"
        case eventsURL = "events_url"
        case receivedEventsURL = "received_events_url"
        case type
        case siteAdmin = "site_admin"
        case name, company, blog, location, email, hireable, bio
        case publicRepos = "public_repos"
        case publicGists = "public_gists"
        case followers, following
        case createdAt = "created_at"
        case updatedAt = "updated_at"
    }

    init(from decoder: any Decoder) throws {
        let input = try decoder.container(keyedBy: InputKeys.self)
        login = try input.decode(String.self, forKey: .login)
        userID = try input.decode(UInt64.self, forKey: .userID)
        nodeID = try input.decodeIfPresent(String.self, forKey: .nodeID)
        avatarURL = try input.decodeIfPresent(URL.self, forKey: .avatarURL)
        gravatarID = try input.decodeIfPresent(String.self, forKey: .gravatarID)
        url = try input.decodeIfPresent(URL.self, forKey: .url)
        htmlURL = try input.decodeIfPresent(URL.self, forKey: .htmlURL)
        followersURL = try input.decodeIfPresent(URL.self, forKey: .followersURL)
        followingURL = try input.decodeIfPresent(String.self, forKey: .followingURL)
        gistsURL = try input.decodeIfPresent(String.self, forKey: .gistsURL)
        starredURL = try input.decodeIfPresent(String.self, forKey: .starredURL)
        subscriptionsURL = try input.decodeIfPresent(URL.self, forKey: .subscriptionsURL)
        organizationsURL = try input.decodeIfPresent(URL.self, forKey: .organizationsURL)
        reposURL = try input.decodeIfPresent(URL.self, forKey: .reposURL)
        eventsURL = try input.decodeIfPresent(String.self, forKey: .eventsURL)
        receivedEventsURL = try input.decodeIfPresent(URL.self, forKey: .receivedEventsURL)
        type = try input.decodeIfPresent(String.self, forKey: .type)
        siteAdmin = try input.decode(Bool.self, forKey: .siteAdmin, default: false)
        name = try input.decodeIfPresent(String.self, forKey: .name)
        company = try input.decodeIfPresent(String.self, forKey: .company)
        blog = try input.decodeIfPresent(String.self, forKey: .blog)
        location = try input.decodeIfPresent(String.self, forKey: .location)
        email = try input.decodeIfPresent(String.self, forKey: .email)
        hireable = try input.decode(Bool.self, forKey: .hireable, default: false)
        bio = try input.decodeIfPresent(String.self, forKey: .bio)
        publicRepos = try input.decode(UInt32.self, forKey: .publicRepos, default: 0)
        publicGists = try input.decode(UInt32.self, forKey: .publicGists, default: 0)
        followers = try input.decode(UInt32.self, forKey: .followers, default: 0)
        following = try input.decode(UInt32.self, forKey: .following, default: 0)
        createdAt = try input.decodeIfPresent(Date.self, forKey: .createdAt)
        updatedAt = try input.decodeIfPresent(Date.self, forKey: .updatedAt)
    }
}
