// Written by scripts/jose-interop-vectors.py (jwcrypto 1.6.1 over pyca/cryptography). Do not edit.

/// JWS tokens signed by an independent library, with their public JWKs.
enum JOSEInteropVectors {
    struct Vector: Sendable {
        /// The `alg`.
        let algorithm: String
        /// The public key, a JWK with a `kid`.
        let publicJWK: String
        /// The compact token.
        let token: String
        /// For ECDSA: the same signature DER-encoded, which JOSE does not allow.
        let derSignatureToken: String?
    }

    static let all: [Vector] = [
        Vector(
            algorithm: "RS256",
            publicJWK:
                #"{"e": "AQAB", "kid": "interop-rs256", "kty": "RSA", "n": "hyWaO1QwDMQsUFk1MIR6vfS4T_0jZGY2fON4s77pKC39F4jSGNkHtlV1bB3EbqP-yJu8kFatWTy7Yo4DLU1Ps6IgfLDuTmXN4Wwlv_xU_9pNn-6Uo2dCHsuhDdes5TUAcxfimTtZMQkzSD0JvqjM6wJMm3coUPotUrQ6hv6Fk-kl8jlnEtsK5i6ItJGzBgPRLlZlTo0yEd7xin_Cyi7XsZ9cKMN0J7FjKWynA7CYEDwgo5NAmAAiSK8M_o0ewHharLmHzdBPDIBWmKYRmE_BuBwczGN_6q6hKhhBWbrwxcgyEfjHxcgFr4YMf2yeIabkLhHS_KtG2EUEkKjKkPNMWw"}"#,
            token:
                "eyJhbGciOiAiUlMyNTYiLCAia2lkIjogImludGVyb3AtcnMyNTYiLCAidHlwIjogIkpXVCJ9.eyJhdWQiOiJjbGllbnQtMTIzIiwiZXhwIjo0MTAyNDQ0ODAwLCJpc3MiOiJodHRwczovL2lzc3Vlci5leGFtcGxlIiwic3ViIjoiaW50ZXJvcC11c2VyIn0.BY_6xM4FhyYETkezwI-ofCqv4FMHkHir59FH8wKstbWQ7UOXWCZXsTG48UewDnuGjMXoL3aGNApaOY5_k2PMCyBWRcRpwBNTFLwTHSbWRjVZiWUOpXqfTp7BUQoTFYwmATI5KXVPtbzX0M0ZoCjsvEdoyctILfjFZYxHUzP-ZgGxTXYVLyawXWjPRiQr8XCOXRX2N4x1jNm1K-136_m-RaGgbB_if7LcJTu6HTAorYcDJhwJE3ixymSHf5egduH3H1XL2HfznLsmwPGY8elh4noncfpYL7fPTEPEgnld0dz780lkOBqILLj9rB9ftPw62I3khrTf7g4KYwQvyb7Kjg",
            derSignatureToken: nil),
        Vector(
            algorithm: "RS384",
            publicJWK:
                #"{"e": "AQAB", "kid": "interop-rs384", "kty": "RSA", "n": "3x-NZbILdi3uTOJC5pK5bAZFwMTsJA9WTFTsZgEp1uTHF0oKhg92ny4rfnCRe-VkO5IJgQkVueCT0ic_09vVvdFu8qLfnaGq5x-8VUzXs4JigE7ytM1MfFAGavR-Dy1daKaZ3Z0XqsLzOq9m6pS5WlBzQuwSOLeGfG00WBrO_ECin3B_24YTdLr6Me80BD25y_zlklM43J9lxfMa0A8NadhGvX4wS7_PUUJx8GFmtMzMRSOLJ2FbHgXURQyTETzY1UgnLNrgzKwV_OgWaoQQf6rKXS45BWTHEbaHPlYLkpMiKKo_U0zj9-VgQ0wa47matiI85Rttwzm6ISrpKhdSJQyJLVA6Wqt2LwQFwfTOLY38Zy1AHhkdD0QWrbrJkMOvrPfE-aLDfMIfAPY1IvOBzjD5AJfblfS4J1NFWgEMHqGptz-s7mbF3Di8l_e12wJd3UmNmiVHLNd1fk03SyimXOfC5z18TszR_Mfo3-J5aZgqmfCTNZZHtj4WpJ6g_45t"}"#,
            token:
                "eyJhbGciOiAiUlMzODQiLCAia2lkIjogImludGVyb3AtcnMzODQiLCAidHlwIjogIkpXVCJ9.eyJhdWQiOiJjbGllbnQtMTIzIiwiZXhwIjo0MTAyNDQ0ODAwLCJpc3MiOiJodHRwczovL2lzc3Vlci5leGFtcGxlIiwic3ViIjoiaW50ZXJvcC11c2VyIn0.kCYYpuHzsb4nXFpezbFBQYH5ujQgszGJwOJHvIF_V4UNApzX4ju6ROg1ec-uVSLTW9w3So9lNEkMctvC2d7re5OhTZk8nqx6o6ne49kE2w3s9Q7ZZlpip4oQAghZdJFfknaFA3SG_bLj_GS4CTj6NPxgMuLiLHIOdh_0PIvsq6nlAuGxJG2TshurG4z3J74zFjZQPXWSGYWa28bKmvx_nfLXks_9DFDUyxAQ0uIxCR3XDRrI6czBJZeVMj2rFqhLmiX7d1HfqRIXBwqWwny3wmhkP2LBDl6wonZVIfj6wRiwo8I88u43O-BsTzBo_J9TYUs-MxlnafwjnObxrHs9WcgyFdZptIywGOJIG-CNmPiEf-_a7GopwfuDiTFDndZ8tN5sndwBMdEOYxRldB7P9AJMqdbaPMRBroqDFvGmXaDCk9mGVwje--PMRuzxsGzU0i1tb5F4EmpfNe6rC73ieDMWyZ17uJvzbPc7YfRa5BEaybbD9yXkXJ1sWK7YgDnS",
            derSignatureToken: nil),
        Vector(
            algorithm: "RS512",
            publicJWK:
                #"{"e": "AQAB", "kid": "interop-rs512", "kty": "RSA", "n": "xNGlLklROPhtEWPl3IqCjvgEL7AoAVvtbpchu0fmNkw-L1zPfNjQlfJ_GOTHlWJPq20ciM-nMlRZmd20e2btBItfiCWCJqIVm8Qkvug_1mPvk1qzXvY_Z6MfVNRl4mTGtT1Hrqu0jkXbqOQnxOI9knWCyRZSKramSXDRGzGc8z4vr6DzhyudmoL-_TDD8TqQIWvVYzhKhYVC1UrThxgLI82ubIlHPM_Zv-aR269EeLWysi63TUJ8Uhvoh5iAJbBTcfB9b9MnogSqbvUcnwELHJ4ArilyFQZmM5B9ysFUDW1VgHQk8EmCWmcGpjm_8zs-0DDgVrH1UL7pveRSKFIXrpWRC4YuiOGlaG7Rzi5DQ3Ovu0r6ZekfrdVaBMPxh4PqQp0WFnkR98QAnaYEJho1dGZmM3-S0h1Pi-RxAKDf3pDXbxDm47SdSiA7HTYL4ZCCZYoMV7zPTD76x4seFsSR4tMbi8YibDunJ4_5AqUUqUrfT5WS2bWWE_AOq9EkktQMQbXhLcMjwtigy_gMJWFAYAHC5KJZNMiuvcONIUR9Zwhe5RY798hwncoffHqSiloCnoDklBh5rGfnGNN9wJRgG8YIZzVtSWimEMjna_Sr1TGTNKon7hCJZcBlD0fjkh3z9Mz9NGHJ4wXx0cdGzStQUnHM4cyDOuLcI9eSgcpQOqE"}"#,
            token:
                "eyJhbGciOiAiUlM1MTIiLCAia2lkIjogImludGVyb3AtcnM1MTIiLCAidHlwIjogIkpXVCJ9.eyJhdWQiOiJjbGllbnQtMTIzIiwiZXhwIjo0MTAyNDQ0ODAwLCJpc3MiOiJodHRwczovL2lzc3Vlci5leGFtcGxlIiwic3ViIjoiaW50ZXJvcC11c2VyIn0.XKZ09kJatNgZdD9JdfqB1xx4Ff0hQ3nbt0cRBPjOooeiLjYNOysW57bkniOCqruaIRQT5-_jRbFJxpavZHnwlfeOQYNTI4w4ouR6giILxl43rOLYLulHpI78541Jvt29oJ4_M5kEle0wVUN4owXQas7mLrf34fHRO4nJeh80CtGScheavzsUKwbHvboPlx8g7dYV_Jj67iSpXqcjmCkrRT622dmGAHY8EXhCM_yZKU8Br4mTozJKAOqLV7ZXu-SMQqRrqlA0fkUU2pCxA6BlQFRmsmO4inMFQCsmw9IrDT1OGnlGkGEecHlyaOC2iR-yIrs3f3NJOjmvMqxx1bbu3tN3QeP32vgie4rw11IAuDW2wAYz751jEpBIqzTvDCQUXybydTQaT3BhbzhmKs59wBhNU3scdgO37XeGHmmMhDAy-ywfLtuKQUcDVXpYL8xU8S-Gl4-jTIRGEfpzr1na5CtXcQF088fNPEXn87FAyZKlWDUj6eXDfvNjhDu8rR5X3qTRUFogbWQ6E1VFg-B0W1hhrgdY_jIhaq4ayvO4sSvK7qrS9Oj3_7neHan2Jk2VU2raC0Aau5zhs3hZMnDwLSuoFrsTnL2Ze642Q4JmzAuFydzdoNzfA9FMRm-OWMZINTRURMWUNpBxqQ5iMpdiaE3u-_dNuXe5zHklE8w1TEw",
            derSignatureToken: nil),
        Vector(
            algorithm: "PS256",
            publicJWK:
                #"{"e": "AQAB", "kid": "interop-ps256", "kty": "RSA", "n": "xUZ07fJ1cjuc-OcqjGlzQa2MHluZM7beQaWRYqNEBfMJMMXPeJGT1MH5j-TUdTjI4-wLp-r3GAXqlxjqpdfk1VrbY3ste8qCcQyTYM8W8jFioB9n3PywAeVk9fKGw6knAmZIWHHtWfP9K0MU5QB_GSIBdtPX-Fm4LbcfPXMIq2YN7K9pOJJPwHMkMsbIyoehFFijNDcJ2xbx79-j4ogY7p0TSoIudxx1gdE_aY-0CyitHxI-dt_HiSz518wp14VW8xv1Bv8DEsbuXjHPvamx_IdNT0DglxKrPtzBAfuz7E8Ac24bwUJjierFmBfJKFDRnxND09pHQptNEqtumLsDJw"}"#,
            token:
                "eyJhbGciOiAiUFMyNTYiLCAia2lkIjogImludGVyb3AtcHMyNTYiLCAidHlwIjogIkpXVCJ9.eyJhdWQiOiJjbGllbnQtMTIzIiwiZXhwIjo0MTAyNDQ0ODAwLCJpc3MiOiJodHRwczovL2lzc3Vlci5leGFtcGxlIiwic3ViIjoiaW50ZXJvcC11c2VyIn0.r53o8EiobhV35VHG2HhIyUxGLYgTxurjs6RNS9403S0RXVYgwwky61RaaiMA_7QcX9y7kf93pBq0ByZgMjb1qm0aLsmAHZHA0B_pIM82sAXRZn_rFfjhLi8C2kcCcwKoyOR-C0OftdSIIhptDnJKG5QWrkRMvjxIlj2DyOFbUog7cfZizD-K2Bn62959jG04ubBVCC0q6BOurjinNuuQPMPe6dV0Ti2TWpbkcsqVNy0lmKbc0kq4u1fTyI81jKcqH1C6qW0_Q3przL-Cokm6g6z4dVhMiqJytX1jk9ji4FTiU-0Q_ZcdJkj3sh78ItXFGoyxKig5IMLqoaQimSAgdg",
            derSignatureToken: nil),
        Vector(
            algorithm: "PS384",
            publicJWK:
                #"{"e": "AQAB", "kid": "interop-ps384", "kty": "RSA", "n": "0iTjk-m9V-WDie-6MOJnZo8VMzhdk4xZw51XLKxG2efrme1lCNXKkCs4uGMGiZ7dxZXPthjGYb5zNAb4xqD99595a-zZTUNMTJ0G1EAmsNtue9QqC-wJkioe_bHhhBY1IpialjtGGywS8j6BlwszGURNn4p8jWoEdebxg87mpA5FMrw1IffNRgZxZ_BH9R-avO8D63mgTlpi2P-ZidnKddgW61bt6Vr71c4shMu2l9n-BNoK2ROzRzXMOnEDX9LkmlVfP1quxog_vgdJQwx-zzqprevRZP8inZBmC3rk18Xb25COnm0fpzJbO_hFs59pW3OPxkCH6HBSrn-CewrdGmO02SnU-I8TepFg4guS6vcIBxJUBkQ9bYIjU6dY9q3x-y-MWjpd6bhUEVHvlECUX7-tX5qiqXHPUKqHkVsFOVvyK-sAp5jSyWmI3IirKHu8G2moAUZ8VRt5fRnMUMPR67uKo8R_IR3mmGWoIlLwzfjp0yRKq2h1QbOVy2Qw-g8B"}"#,
            token:
                "eyJhbGciOiAiUFMzODQiLCAia2lkIjogImludGVyb3AtcHMzODQiLCAidHlwIjogIkpXVCJ9.eyJhdWQiOiJjbGllbnQtMTIzIiwiZXhwIjo0MTAyNDQ0ODAwLCJpc3MiOiJodHRwczovL2lzc3Vlci5leGFtcGxlIiwic3ViIjoiaW50ZXJvcC11c2VyIn0.RdxemDII4EJifoZArWTnwAsl9tA2UXJ3rpyfpOI7p00XSO9fXWi1konRXQnJqIy2SgXWNUFjzovZfyGRWc_6uSGzEbmG9xF0SGRgIApcc_K_dX0-epjudbbuSxDmNO-SWS6bjfN0gYP9rDFIvzMcHUEqV6j6l2zEWKCI5mOW_A9FnHqQnDaIKjtewbc_2UpeFaH4eSdczo5D2DWPEE_lCYkKixcmTf4DqOGYqaZzIPeSf4uNJXlSVuh3tSBflTmu55S5V6bHhP8PmEDT2lYjl_xIoHVYnYQ_uQWbqBqfelbYMzBW0mNAp7H_gvmWUSLCNFJp_p8yc31t5hzcsRCQj3S4dP2yl_h0rjG4jQpLKCePJJQFlwZH8PsOUklscES3YSSxe1mlXsXDp3z3NIIiAKqknXSntUMnAawUHnge1N0wnmCgRb7MnDOrBb3dWz0W5Ibl5wKafPfu3SARXq_DkHrfg7FtHXckaFKJ2LNLB4QaoWTKDHOT7EGGEziVU8g3",
            derSignatureToken: nil),
        Vector(
            algorithm: "PS512",
            publicJWK:
                #"{"e": "AQAB", "kid": "interop-ps512", "kty": "RSA", "n": "oEJtNx5Rjh45WcEg5yt636QSiGVAqGmmeFpDXhJFh9rd_bLh23GxE-Y562MPNWVxKjNyC_wda4iWu9Wp79zb2_6VJLklmSZ8KSmVd1JiwagNCkburK49G3SwFFhx06Zm2eTlb3sbWQjPIPdcM9kjDkA1zl2YrF0LBvCjwERzt-Z6KgvNVUvoxZDt9D6gDUacTJ98RNR8w3pN5aJPfU2xgu5Bl5o_jNh0YukOpYxHHsycXevKWyCDqweZL2hO28MvF84jrZ-p-Xedw2cK3m0fSeOuZQrmY4Jz24TBOF35E0_VlpjNrs5ZmHtdb1TVetbBElqTyovs___zsE2JLbgtr6PECO5eLijNDLdstouVR4eNZX34Po6ADiB3XpZS-3vD0_WzToDC-6AulCKRHlP8GGihLxtQJRFEHgTDzFymrcEKxh8aSg2jTJHvLm_YtN1dKqS0U3OJG847NfjJRuY4BUaAZNfJzty-BNT6AHW3Mf0rxt8L9H7plN_SCaXmIWvgBH-DRqwYmPwFeovN-bwHtiJCttqjNW8pXiunIedywlCXtIgqYzBQL5cyzK_fhHOaaw0FuteSR7cxIt5QcuR44-AUsqiQ5WaBsozGI1Lcpg26Dw546Z3wUu4iFdCriNuKF9LPWaL2GKskhSkwUIMWnmCZB1zxh93ZxsI9KHLePtc"}"#,
            token:
                "eyJhbGciOiAiUFM1MTIiLCAia2lkIjogImludGVyb3AtcHM1MTIiLCAidHlwIjogIkpXVCJ9.eyJhdWQiOiJjbGllbnQtMTIzIiwiZXhwIjo0MTAyNDQ0ODAwLCJpc3MiOiJodHRwczovL2lzc3Vlci5leGFtcGxlIiwic3ViIjoiaW50ZXJvcC11c2VyIn0.VwzEtBjP0lUdrzdSeTp8RTuGKArzL8PWjTYncD60k721iL25L841P6Pn5eqHILOO2dxNiimRfevfsRbrEiM7jYcUJnyHTUJAMQVpKZbm71Fgv8rP2FDR3iAk9vZdyqIvXSFSEy4n1FtQnYHtfZ3u0d1Ot-9dmhEWCrO0HZ0RibRoT_Ft6NKYVXZ_1nzPBd6uhPUEYlupRyiJZ9zgH_tlWZSDsn13nzvxWzNn5irfxYztsmj6krO6N_Q-2dvHlXtHGblnnAq32esUt0JVrA5hqVrQ22Np24V1OuBFt9XCgjTbyHvPFs56o_X7xYCiDJ578gKKgclROmD4IxFTi6KQB0v4guluy_sbiek68sNAd4z5vQ0aDLgB17UlwzcV5XMQvaPdORaLPVxtvgCbxReE20jcayMbddC_Dd_OIFHgACcq9Xhm1MSxNTEym8T50rDXAnHUzCGhu5wTmYBe964bFj0q0flYpCEe8EgRn7clNeZaZtmh5OXZVoz31CgTgSJV5rJx0kfNlpqTIlkixxK5bwpBT9Ske0nn8uBPu6OCk3q6qigeSayzitEUFYVmvZVIJwVt9wiI0o1RJ_vsN5vsLfoeLh6odZShZBCwOZYYcSqfc5R8_P6l2el2_jGTRKoevtldgxPBDAhGpcuCnL1Ogsdzj025iMVur-UcC4GviLE",
            derSignatureToken: nil),
        Vector(
            algorithm: "ES256",
            publicJWK:
                #"{"crv": "P-256", "kid": "interop-es256", "kty": "EC", "x": "SLuOnuMDD7AK6Iu-CHwVJrvnI5bOj-PIcVMDqIloVIM", "y": "ocBp2wzenCkZW3mLEX48gQxc-mdhEMs3djRBdvkXeZo"}"#,
            token:
                "eyJhbGciOiAiRVMyNTYiLCAia2lkIjogImludGVyb3AtZXMyNTYiLCAidHlwIjogIkpXVCJ9.eyJhdWQiOiJjbGllbnQtMTIzIiwiZXhwIjo0MTAyNDQ0ODAwLCJpc3MiOiJodHRwczovL2lzc3Vlci5leGFtcGxlIiwic3ViIjoiaW50ZXJvcC11c2VyIn0.awFWepjQCWL2Nv1jWWUe_Ss9v9utfo-Xe_xHuxGmTZPu42xAlIjt2Ao93ZzgjaJq5LZjEqSqjR5kruJOm12Y1A",
            derSignatureToken:
                "eyJhbGciOiAiRVMyNTYiLCAia2lkIjogImludGVyb3AtZXMyNTYiLCAidHlwIjogIkpXVCJ9.eyJhdWQiOiJjbGllbnQtMTIzIiwiZXhwIjo0MTAyNDQ0ODAwLCJpc3MiOiJodHRwczovL2lzc3Vlci5leGFtcGxlIiwic3ViIjoiaW50ZXJvcC11c2VyIn0.MEUCIGsBVnqY0Ali9jb9Y1llHv0rPb_brX6Pl3v8R7sRpk2TAiEA7uNsQJSI7dgKPd2c4I2iauS2YxKkqo0eZK7iTptdmNQ"
        ),
        Vector(
            algorithm: "ES384",
            publicJWK:
                #"{"crv": "P-384", "kid": "interop-es384", "kty": "EC", "x": "vaYyZ1LIAMfTbwxD9ruaRAE3JKmeT_nKpJAOY_qB2vxOdmj3U--YaPuoot2u1zOO", "y": "NMk_XjwR7EK_NGe_MmNQM_S4MmuVk-03aJRwMJzIE0JwV0Hd7DCpbX7e7yNVMgjA"}"#,
            token:
                "eyJhbGciOiAiRVMzODQiLCAia2lkIjogImludGVyb3AtZXMzODQiLCAidHlwIjogIkpXVCJ9.eyJhdWQiOiJjbGllbnQtMTIzIiwiZXhwIjo0MTAyNDQ0ODAwLCJpc3MiOiJodHRwczovL2lzc3Vlci5leGFtcGxlIiwic3ViIjoiaW50ZXJvcC11c2VyIn0.kWNdvZCNd4_mPfEYDx0Ckv5O59RQE72ED1PgQ5eNQ97erlnXYkZGo0pzcWk7oxlHUaY3FFMj8ci2Aqekf4RoYsn-XxmHZ8v3_XC7fxyi6a1eDpmQslaVRlq2D2z8Wd_7",
            derSignatureToken:
                "eyJhbGciOiAiRVMzODQiLCAia2lkIjogImludGVyb3AtZXMzODQiLCAidHlwIjogIkpXVCJ9.eyJhdWQiOiJjbGllbnQtMTIzIiwiZXhwIjo0MTAyNDQ0ODAwLCJpc3MiOiJodHRwczovL2lzc3Vlci5leGFtcGxlIiwic3ViIjoiaW50ZXJvcC11c2VyIn0.MGUCMQCRY129kI13j-Y98RgPHQKS_k7n1FATvYQPU-BDl41D3t6uWddiRkajSnNxaTujGUcCMFGmNxRTI_HItgKnpH-EaGLJ_l8Zh2fL9_1wu38coumtXg6ZkLJWlUZatg9s_Fnf-w"
        ),
        Vector(
            algorithm: "EdDSA",
            publicJWK:
                #"{"crv": "Ed25519", "kid": "interop-eddsa", "kty": "OKP", "x": "t533iE3gIMrUdD3VYhoMeIH4FzP9yLKk_NixGDMgIGM"}"#,
            token:
                "eyJhbGciOiAiRWREU0EiLCAia2lkIjogImludGVyb3AtZWRkc2EiLCAidHlwIjogIkpXVCJ9.eyJhdWQiOiJjbGllbnQtMTIzIiwiZXhwIjo0MTAyNDQ0ODAwLCJpc3MiOiJodHRwczovL2lzc3Vlci5leGFtcGxlIiwic3ViIjoiaW50ZXJvcC11c2VyIn0.imP_g1fbvcVJaS69ijaDB9L3LQ7s7hZW1hZ7ZalL0evdSBF7QddSUZ13tZbjZaWEiu0c5VfCTNoQqtxJow7zDg",
            derSignatureToken: nil),
    ]
}
