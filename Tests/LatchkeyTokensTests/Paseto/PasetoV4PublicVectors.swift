/// The official PASETO v4 test vectors that exercise `v4.public` verification, verbatim from
/// https://github.com/paseto-standard/test-vectors/blob/master/v4.json (commit d26d2dd8d45d316a581032205cd131ab5c326aa9).
///
/// Kept: 4-S-1, 4-S-2, 4-S-3 (must verify) and 4-F-1, 4-F-2 (must fail: a `v4.local` token given a
/// public key, a `v4.public` token given a symmetric key). Dropped: the `v4.local` (symmetric) vectors
/// 4-E-1 to 4-E-9, 4-F-3 and 4-F-4, which Latchkey does not implement (see
/// ``PasetoTestVector/skippedLocalVectors``), and the vectors' `secret-key*` and `public-key-pem` fields,
/// which verification does not use. The other fields are unchanged; the top-level `name` marks the subset.
///
/// The JSON lives in a Swift string because the test target declares no resources; a `.json` file in it
/// would be an unhandled file and make SwiftPM warn.
enum PasetoV4PublicVectors {
    /// The fixture, in the test-vectors file's own format.
    static let json = #"""
        {
          "name": "PASETO v4 Test Vectors (v4.public subset)",
          "tests": [
            {
              "name": "4-S-1",
              "expect-fail": false,
              "public-key": "1eb9dbbbbc047c03fd70604e0071f0987e16b28b757225c11f00415d0e20b1a2",
              "token": "v4.public.eyJkYXRhIjoidGhpcyBpcyBhIHNpZ25lZCBtZXNzYWdlIiwiZXhwIjoiMjAyMi0wMS0wMVQwMDowMDowMCswMDowMCJ9bg_XBBzds8lTZShVlwwKSgeKpLT3yukTw6JUz3W4h_ExsQV-P0V54zemZDcAxFaSeef1QlXEFtkqxT1ciiQEDA",
              "payload": "{\"data\":\"this is a signed message\",\"exp\":\"2022-01-01T00:00:00+00:00\"}",
              "footer": "",
              "implicit-assertion": ""
            },
            {
              "name": "4-S-2",
              "expect-fail": false,
              "public-key": "1eb9dbbbbc047c03fd70604e0071f0987e16b28b757225c11f00415d0e20b1a2",
              "token": "v4.public.eyJkYXRhIjoidGhpcyBpcyBhIHNpZ25lZCBtZXNzYWdlIiwiZXhwIjoiMjAyMi0wMS0wMVQwMDowMDowMCswMDowMCJ9v3Jt8mx_TdM2ceTGoqwrh4yDFn0XsHvvV_D0DtwQxVrJEBMl0F2caAdgnpKlt4p7xBnx1HcO-SPo8FPp214HDw.eyJraWQiOiJ6VmhNaVBCUDlmUmYyc25FY1Q3Z0ZUaW9lQTlDT2NOeTlEZmdMMVc2MGhhTiJ9",
              "payload": "{\"data\":\"this is a signed message\",\"exp\":\"2022-01-01T00:00:00+00:00\"}",
              "footer": "{\"kid\":\"zVhMiPBP9fRf2snEcT7gFTioeA9COcNy9DfgL1W60haN\"}",
              "implicit-assertion": ""
            },
            {
              "name": "4-S-3",
              "expect-fail": false,
              "public-key": "1eb9dbbbbc047c03fd70604e0071f0987e16b28b757225c11f00415d0e20b1a2",
              "token": "v4.public.eyJkYXRhIjoidGhpcyBpcyBhIHNpZ25lZCBtZXNzYWdlIiwiZXhwIjoiMjAyMi0wMS0wMVQwMDowMDowMCswMDowMCJ9NPWciuD3d0o5eXJXG5pJy-DiVEoyPYWs1YSTwWHNJq6DZD3je5gf-0M4JR9ipdUSJbIovzmBECeaWmaqcaP0DQ.eyJraWQiOiJ6VmhNaVBCUDlmUmYyc25FY1Q3Z0ZUaW9lQTlDT2NOeTlEZmdMMVc2MGhhTiJ9",
              "payload": "{\"data\":\"this is a signed message\",\"exp\":\"2022-01-01T00:00:00+00:00\"}",
              "footer": "{\"kid\":\"zVhMiPBP9fRf2snEcT7gFTioeA9COcNy9DfgL1W60haN\"}",
              "implicit-assertion": "{\"test-vector\":\"4-S-3\"}"
            },
            {
              "name": "4-F-1",
              "expect-fail": true,
              "public-key": "1eb9dbbbbc047c03fd70604e0071f0987e16b28b757225c11f00415d0e20b1a2",
              "token": "v4.local.vngXfCISbnKgiP6VWGuOSlYrFYU300fy9ijW33rznDYgxHNPwWluAY2Bgb0z54CUs6aYYkIJ-bOOOmJHPuX_34Agt_IPlNdGDpRdGNnBz2MpWJvB3cttheEc1uyCEYltj7wBQQYX.YXJiaXRyYXJ5LXN0cmluZy10aGF0LWlzbid0LWpzb24",
              "payload": null,
              "footer": "arbitrary-string-that-isn't-json",
              "implicit-assertion": "{\"test-vector\":\"4-F-1\"}"
            },
            {
              "name": "4-F-2",
              "expect-fail": true,
              "nonce": "df654812bac492663825520ba2f6e67cf5ca5bdc13d4e7507a98cc4c2fcc3ad8",
              "key": "707172737475767778797a7b7c7d7e7f808182838485868788898a8b8c8d8e8f",
              "token": "v4.public.eyJpbnZhbGlkIjoidGhpcyBzaG91bGQgbmV2ZXIgZGVjb2RlIn22Sp4gjCaUw0c7EH84ZSm_jN_Qr41MrgLNu5LIBCzUr1pn3Z-Wukg9h3ceplWigpoHaTLcwxj0NsI1vjTh67YB.eyJraWQiOiJ6VmhNaVBCUDlmUmYyc25FY1Q3Z0ZUaW9lQTlDT2NOeTlEZmdMMVc2MGhhTiJ9",
              "payload": null,
              "footer": "{\"kid\":\"zVhMiPBP9fRf2snEcT7gFTioeA9COcNy9DfgL1W60haN\"}",
              "implicit-assertion": "{\"test-vector\":\"4-F-2\"}"
            }
          ]
        }
        """#
}
