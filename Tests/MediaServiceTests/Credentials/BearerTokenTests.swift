import HTTPCaching
import MediaCore
import MediaService
import Testing

@Suite struct BearerTokenTests {
    private func refusal(_ value: String) -> CredentialError? {
        do {
            _ = try BearerToken.parse(authorization: value)
            return nil
        } catch {
            return error
        }
    }

    @Test func schemeIsCaseInsensitive() throws {
        for value in ["Bearer t1", "bearer t1", "BEARER t1", "bEaReR t1"] {
            #expect(try BearerToken.parse(authorization: value).token == "t1")
        }
    }

    @Test func fullB64TokenAlphabetAndPadding() throws {
        let token = "AZaz09-._~+/abc=="
        #expect(try BearerToken.parse(authorization: "Bearer " + token).token == token)
        #expect(try BearerToken.parse(authorization: "Bearer " + token).authorizationValue == "Bearer " + token)
    }

    static let refusals: [(String, String, String)] = [
        ("", "empty-authorization", "the Authorization field is empty"),
        ("Basic dXNlcjpwYXNz", "not-bearer", "the Authorization scheme is not Bearer"),
        ("Bearers t1", "not-bearer", "the Authorization scheme is not Bearer"),
        ("t1", "not-bearer", "the Authorization scheme is not Bearer"),
        ("Bearer", "missing-token", "Bearer without a token"),
        ("Bearer ", "missing-token", "Bearer without a token"),
        ("Bearer  t1", "bad-separator", "Bearer and the token must be separated by exactly one space"),
        ("Bearer\tt1", "bad-separator", "Bearer and the token must be separated by exactly one space"),
        ("Bearer t1 t2", "malformed-token", "the bearer token is not b64token ([A-Za-z0-9-._~+/]+=*)"),
        ("Bearer t1,t2", "malformed-token", "the bearer token is not b64token ([A-Za-z0-9-._~+/]+=*)"),
        ("Bearer a=b", "malformed-token", "the bearer token is not b64token ([A-Za-z0-9-._~+/]+=*)"),
        ("Bearer ==", "malformed-token", "the bearer token is not b64token ([A-Za-z0-9-._~+/]+=*)"),
        ("Bearer tök", "malformed-token", "the bearer token is not b64token ([A-Za-z0-9-._~+/]+=*)"),
        ("Bearer \"t1\"", "malformed-token", "the bearer token is not b64token ([A-Za-z0-9-._~+/]+=*)"),
    ]

    @Test(arguments: Self.refusals.indices)
    func refusedWithItsReason(_ index: Int) {
        let (value, code, context) = Self.refusals[index]
        #expect(refusal(value) == CredentialError(CredentialError.Code(rawValue: code), context))
    }

    @Test func errorsNeverEchoTheCredential() {
        for (value, _, _) in Self.refusals where value.count > 7 {
            let secret = String(value.dropFirst(7))
            #expect(!(refusal(value)?.description.contains(secret) ?? true), "\(value)")
        }
    }

    @Test func fromFields() throws {
        #expect(try BearerToken.from(["Accept": "image/*"]) == nil)
        #expect(try BearerToken.from(["authorization": "Bearer t2"])?.token == "t2")
        #expect(throws: CredentialError(.multipleAuthorization, "2 Authorization field lines")) {
            try BearerToken.from(HTTPFields([("Authorization", "Bearer t1"), ("Authorization", "Bearer t2")]))
        }
        #expect(throws: CredentialError(.missingToken, "Bearer without a token")) {
            try BearerToken.from(["Authorization": "Bearer   "])
        }
    }

    @Test func directInitValidates() {
        #expect(throws: CredentialError(.missingToken, "the bearer token is empty")) { try BearerToken(token: "") }
        #expect(throws: CredentialError(.malformedToken, "the bearer token is not b64token ([A-Za-z0-9-._~+/]+=*)")) {
            try BearerToken(token: "a b")
        }
    }

    @Test func neverPrintsTheToken() throws {
        let token = try BearerToken.parse(authorization: "Bearer s3cr3t-token")
        #expect(token.description == "BearerToken(<redacted>)")
        #expect(String(describing: token) == "BearerToken(<redacted>)")
        #expect(String(reflecting: token) == "BearerToken(<redacted>)")
        #expect("\(token)" == "BearerToken(<redacted>)")
        var dumped = ""
        dump(token, to: &dumped)
        #expect(!dumped.contains("s3cr3t"))
        #expect(!"\([token])".contains("s3cr3t"))
    }
}
