// SPDX-License-Identifier: Apache-2.0

import MapperCore
import Testing

/// `POST /merge/{Model}` (docs/api.md): YYModel's `modelSetWithDictionary:` on an existing instance — the target in
/// model form, the patch in wire form, per property the patch's result when it holds any of the property's keys.
struct MergeTests {
    static let registry = ConversionFixture.snapshot([
        #"{"name":"M_Item","properties":{"id":{"type":"int32","required":true},"#
            + #""name":{"type":"string","key":["n","title"]},"price":{"type":"double","minimum":0},"#
            + #""tags":{"type":"array","of":"string"},"owner":"M_Owner","size":{"type":"int32","key":"meta.size"}},"#
            + #""validate":{"requireAny":[["name","owner"]]}}"#,
        #"{"name":"M_Owner","properties":{"uid":"int32","nick":"string"}}"#,
        #"{"name":"M_Shape","properties":{"kind":"string"},"#
            + #""classForDictionary":[{"when":{"has":"radius"},"use":"M_Circle"},{"when":{"has":"side"},"use":"M_Square"}]}"#,
        #"{"name":"M_Circle","extends":"M_Shape","properties":{"radius":"double"}}"#,
        #"{"name":"M_Square","extends":"M_Shape","properties":{"side":"double"}}"#,
        #"{"name":"M_Wrapped","willTransform":{"unwrap":"data"},"unknownKeys":"reject","properties":{"a":"int32","b":"int32"}}"#,
    ])

    private func merge(
        _ model: String, _ body: String, mode: ConversionOptions.Mode = .lax,
        output: ConversionOptions.Form = .model
    ) -> Produced {
        guard case .success(let snapshot) = Self.registry else { return Produced(status: 0, output: "", entries: []) }
        var options = ConversionOptions()
        options.mode = mode
        options.output = output
        return Produced(
            Array(body.utf8).withUnsafeBytes { body in
                Result { () throws(MappingError) in try snapshot.merge(body, model: model, options: options) }
            })
    }

    static let target = #"{"id":1,"name":"a","price":2.5,"tags":["x"],"owner":{"uid":1,"nick":"o"},"size":3}"#

    @Test func thePatchReplacesExactlyThePropertiesWhoseKeysItHolds() {
        // `title` is a fallback key of `name`; `tags: null` gives no value; `owner` is replaced as a whole.
        #expect(
            merge("M_Item", #"{"target":\#(Self.target),"patch":{"title":"b","tags":null,"owner":{"uid":2}}}"#)
                == Produced(
                    status: 200, output: #"{"id":1,"name":"b","price":2.5,"owner":{"uid":2},"size":3}"#, entries: []))
        #expect(merge("M_Item", #"{"target":\#(Self.target),"patch":{}}"#).output == Self.target)
    }

    @Test func patchEntriesAreAtItsWireKeysAndTargetEntriesAtItsNames() {
        #expect(
            merge("M_Item", #"{"target":{"id":"1","name":"a"},"patch":{"meta":{"size":"9"}}}"#)
                == Produced(
                    status: 200, output: #"{"id":1,"name":"a","price":0,"size":9}"#,
                    entries: ["/target/id coerced", "/patch/meta/size coerced"]))
        #expect(
            merge("M_Item", #"{"target":{"id":"1","name":"a"},"patch":{"meta":{"size":"9"}}}"#, mode: .strict)
                == Produced(
                    status: 422, output: #"{"id":1,"name":"a","price":0,"size":9}"#,
                    entries: ["!/target/id coerced", "!/patch/meta/size coerced"]))
    }

    @Test func theResultIsValidatedAsAWholeNotTheTarget() {
        // The target alone lacks `id` and breaks `price`'s minimum; the patch mends both.
        #expect(
            merge("M_Item", #"{"target":{"name":"a","price":-1},"patch":{"id":5,"price":3}}"#)
                == Produced(status: 200, output: #"{"id":5,"name":"a","price":3,"size":0}"#, entries: []))
        #expect(
            merge("M_Item", #"{"target":{"id":1,"name":"a","price":-1},"patch":{"n":"b"}}"#)
                == Produced(
                    status: 422, output: #"{"id":1,"name":"b","price":-1,"size":0}"#,
                    entries: ["!/target/price constraint_failed"]))
        #expect(
            merge("M_Item", #"{"target":{"id":1,"name":"a"},"patch":{"id":null,"n":null}}"#)
                == Produced(
                    status: 422, output: #"{"id":0,"price":0,"size":0}"#,
                    entries: [
                        "/patch/id null_to_default",
                        "!/patch/id missing_required", "!/target rule_failed",
                    ]))
        #expect(
            merge("M_Item", #"{"target":{"name":"a"},"patch":{}}"#)
                == Produced(
                    status: 422, output: #"{"id":0,"name":"a","price":0,"size":0}"#,
                    entries: ["!/target/id missing_required"]))
    }

    @Test func keysMappedWritesTheWireForm() {
        #expect(
            merge("M_Item", #"{"target":{"id":1,"name":"a"},"patch":{"meta":{"size":2}}}"#, output: .wire).output
                == #"{"id":1,"n":"a","price":0,"meta":{"size":2}}"#)
    }

    @Test func theTargetChoosesTheModelAndThePatchCannot() {
        #expect(
            merge("M_Shape", #"{"target":{"radius":1},"patch":{"radius":"2","side":3}}"#)
                == Produced(status: 200, output: #"{"radius":2}"#, entries: ["/patch/radius coerced"]))
    }

    @Test func thePatchGoesThroughWillTransformAndUnknownKeys() {
        #expect(
            merge("M_Wrapped", #"{"target":{"a":1,"b":2},"patch":{"data":{"b":3,"c":4}}}"#)
                == Produced(status: 422, output: #"{"a":1,"b":3}"#, entries: ["!/patch/data/c unknown_key"]))
        #expect(merge("M_Wrapped", #"{"target":{"a":1,"b":2},"patch":{"data":{"b":3}}}"#).output == #"{"a":1,"b":3}"#)
    }

    @Test(arguments: [
        "[]", #"{"target":{}}"#, #"{"patch":{}}"#, #"{"target":{},"patch":[]}"#, #"{"target":1,"patch":{}}"#,
        #"{"target":{},"patch":{},"x":{}}"#,
    ])
    func aBodyThatIsNotTargetAndPatchObjectsIsNotAnObject(_ body: String) {
        #expect(merge("M_Item", body) == Produced(status: 400, output: "not_an_object", entries: []))
    }

    @Test func anUnknownModelIsNotFound() {
        #expect(merge("Nope", #"{"target":{},"patch":{}}"#).status == 404)
    }
}
