// SPDX-License-Identifier: Apache-2.0

import Foundation

// Benchmarks/schemas/weibo.json as Codable types, mapped as in GithubUser.swift: `InputKeys` hold the schema's
// keys, the synthesised `CodingKeys` (the property names) are the output keys.

struct WeiboTimeline: Codable {
    var statuses: [WeiboStatus]?
    var hasVisible: Bool
    var previousCursor: Int64
    var nextCursor: Int64
    var totalNumber: Int32
    var interval: Int32

    enum InputKeys: String, CodingKey {
        case statuses
        case hasVisible = "hasvisible"
        case previousCursor = "previous_cursor"
        case nextCursor = "next_cursor"
        case totalNumber = "total_number"
        case interval
    }

    init(from decoder: any Decoder) throws {
        let input = try decoder.container(keyedBy: InputKeys.self)
        statuses = try input.decodeIfPresent([WeiboStatus].self, forKey: .statuses)
        hasVisible = try input.decode(Bool.self, forKey: .hasVisible, default: false)
        previousCursor = input.decodeLenientInteger(Int64.self, forKey: .previousCursor)
        // The API sends this cursor as a string.
        nextCursor = input.decodeLenientInteger(Int64.self, forKey: .nextCursor)
        totalNumber = try input.decode(Int32.self, forKey: .totalNumber, default: 0)
        interval = try input.decode(Int32.self, forKey: .interval, default: 0)
    }
}

/// A class, not a struct: a status holds its retweeted status, and a struct cannot contain itself.
final class WeiboStatus: Codable {
    var statusID: Int64
    var idString: String?
    var mid: String?
    var createdAt: Date?
    var text: String?
    var source: String?
    var favorited: Bool
    var truncated: Bool
    var pictureIDs: [String]?
    var pictures: [WeiboPicture]?
    var thumbnailPicture: URL?
    var originalPicture: URL?
    var user: WeiboUser?
    var retweetedStatus: WeiboStatus?
    var repostsCount: Int32
    var commentsCount: Int32
    var attitudesCount: Int32

    enum InputKeys: String, CodingKey {
        case statusID = "id"
        case idString = "idstr"
        case mid
        case createdAt = "created_at"
        case text, source, favorited, truncated
        case pictureIDs = "pic_ids"
        case pictures = "pic_infos"
        case thumbnailPicture = "thumbnail_pic"
        case originalPicture = "original_pic"
        case user
        case retweetedStatus = "retweeted_status"
        case repostsCount = "reposts_count"
        case commentsCount = "comments_count"
        case attitudesCount = "attitudes_count"
    }

    init(from decoder: any Decoder) throws {
        let input = try decoder.container(keyedBy: InputKeys.self)
        statusID = try input.decode(Int64.self, forKey: .statusID)
        idString = try input.decodeIfPresent(String.self, forKey: .idString)
        mid = try input.decodeIfPresent(String.self, forKey: .mid)
        createdAt = try input.decodeIfPresent(Date.self, forKey: .createdAt)
        text = try input.decodeIfPresent(String.self, forKey: .text)
        source = try input.decodeIfPresent(String.self, forKey: .source)
        favorited = try input.decode(Bool.self, forKey: .favorited, default: false)
        truncated = try input.decode(Bool.self, forKey: .truncated, default: false)
        pictureIDs = try input.decodeIfPresent([String].self, forKey: .pictureIDs)
        pictures = try input.decodeIfPresent([WeiboPicture].self, forKey: .pictures)
        thumbnailPicture = try input.decodeIfPresent(URL.self, forKey: .thumbnailPicture)
        originalPicture = try input.decodeIfPresent(URL.self, forKey: .originalPicture)
        user = try input.decodeIfPresent(WeiboUser.self, forKey: .user)
        retweetedStatus = try input.decodeIfPresent(WeiboStatus.self, forKey: .retweetedStatus)
        repostsCount = try input.decode(Int32.self, forKey: .repostsCount, default: 0)
        commentsCount = try input.decode(Int32.self, forKey: .commentsCount, default: 0)
        attitudesCount = try input.decode(Int32.self, forKey: .attitudesCount, default: 0)
    }
}

struct WeiboPicture: Codable {
    var pictureID: String?
    var thumbnail: WeiboPictureSize?
    var large: WeiboPictureSize?
    var objectType: String?

    enum InputKeys: String, CodingKey {
        case pictureID = "pic_id"
        case thumbnail, large
        case objectType = "object_type"
    }

    init(from decoder: any Decoder) throws {
        let input = try decoder.container(keyedBy: InputKeys.self)
        pictureID = try input.decodeIfPresent(String.self, forKey: .pictureID)
        thumbnail = try input.decodeIfPresent(WeiboPictureSize.self, forKey: .thumbnail)
        large = try input.decodeIfPresent(WeiboPictureSize.self, forKey: .large)
        objectType = try input.decodeIfPresent(String.self, forKey: .objectType)
    }
}

struct WeiboPictureSize: Codable {
    var url: URL?
    var width: Int32
    var height: Int32

    enum InputKeys: String, CodingKey {
        case url, width, height
    }

    init(from decoder: any Decoder) throws {
        let input = try decoder.container(keyedBy: InputKeys.self)
        url = try input.decodeIfPresent(URL.self, forKey: .url)
        width = try input.decode(Int32.self, forKey: .width, default: 0)
        height = try input.decode(Int32.self, forKey: .height, default: 0)
    }
}

struct WeiboUser: Codable {
    var userID: Int64
    var screenName: String?
    var name: String?
    var province: Int32
    var city: Int32
    var location: String?
    var userDescription: String?
    var profileImageURL: URL?
    var gender: String?
    var followersCount: Int32
    var friendsCount: Int32
    var statusesCount: Int32
    var createdAt: Date?
    var following: Bool
    var verified: Bool
    var verifiedType: Int32
    var avatarLarge: URL?
    var language: String?

    enum InputKeys: String, CodingKey {
        case userID = "id"
        case screenName = "screen_name"
        case name, province, city, location
        case userDescription = "description"
        case profileImageURL = "profile_image_url"
        case gender
        case followersCount = "followers_count"
        case friendsCount = "friends_count"
        case statusesCount = "statuses_count"
        case createdAt = "created_at"
        case following, verified
        case verifiedType = "verified_type"
        case avatarLarge = "avatar_large"
        case language = "lang"
    }

    init(from decoder: any Decoder) throws {
        let input = try decoder.container(keyedBy: InputKeys.self)
        userID = try input.decode(Int64.self, forKey: .userID)
        screenName = try input.decodeIfPresent(String.self, forKey: .screenName)
        name = try input.decodeIfPresent(String.self, forKey: .name)
        // The API sends both as strings ("11").
        province = input.decodeLenientInteger(Int32.self, forKey: .province)
        city = input.decodeLenientInteger(Int32.self, forKey: .city)
        location = try input.decodeIfPresent(String.self, forKey: .location)
        userDescription = try input.decodeIfPresent(String.self, forKey: .userDescription)
        profileImageURL = try input.decodeIfPresent(URL.self, forKey: .profileImageURL)
        gender = try input.decodeIfPresent(String.self, forKey: .gender)
        followersCount = try input.decode(Int32.self, forKey: .followersCount, default: 0)
        friendsCount = try input.decode(Int32.self, forKey: .friendsCount, default: 0)
        statusesCount = try input.decode(Int32.self, forKey: .statusesCount, default: 0)
        createdAt = try input.decodeIfPresent(Date.self, forKey: .createdAt)
        following = try input.decode(Bool.self, forKey: .following, default: false)
        verified = try input.decode(Bool.self, forKey: .verified, default: false)
        verifiedType = try input.decode(Int32.self, forKey: .verifiedType, default: 0)
        avatarLarge = try input.decodeIfPresent(URL.self, forKey: .avatarLarge)
        language = try input.decodeIfPresent(String.self, forKey: .language)
    }
}
