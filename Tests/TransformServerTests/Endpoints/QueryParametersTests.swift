// SPDX-License-Identifier: Apache-2.0

import MapperCore
import Testing

@testable import TransformServer

/// The conversion options come from the query in one place, over the server's defaults.
@Suite struct QueryParametersTests {
    static var defaults: ConversionOptions {
        var options = ConversionOptions()
        options.maxReportEntries = 7
        options.keepsEntries = false
        return options
    }

    @Test func takesEveryConversionParameterFromTheQuery() {
        let query = ["mode": "strict", "from": "model", "keys": "mapped", "hash": "true"]
        let options = QueryParameters.conversionOptions(query, defaults: Self.defaults)
        #expect(options.mode == .strict && options.input == .model && options.output == .wire && options.hash)
        #expect(options.maxReportEntries == 7 && !options.keepsEntries)
    }

    @Test func anEmptyQueryKeepsTheDefaults() {
        #expect(QueryParameters.conversionOptions([:], defaults: Self.defaults) == Self.defaults)
    }

    @Test func normalizationWritesTheWireFormWhateverTheKeys() {
        let options = QueryParameters.conversionOptions(["keys": "names"], defaults: Self.defaults, writesWire: true)
        #expect(options.output == .wire)
    }
}
