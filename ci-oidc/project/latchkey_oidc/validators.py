from oauth2_provider.oauth2_validators import OAuth2Validator


class LatchkeyOAuth2Validator(OAuth2Validator):
    """Adds the standard profile/email claims (ID token and /o/userinfo/).

    The request-agnostic form (no `request` parameter, callables per claim) lets
    DOT also list the claims in discovery's `claims_supported`.  Each claim is
    released only when its scope (see `oidc_claim_scope`) was granted:
    sub -> openid; name, given_name, family_name, preferred_username -> profile;
    email, email_verified -> email.
    """

    oidc_claim_scope = OAuth2Validator.oidc_claim_scope

    def get_additional_claims(self):
        return {
            "name": lambda r: r.user.get_full_name(),
            "given_name": lambda r: r.user.first_name,
            "family_name": lambda r: r.user.last_name,
            "preferred_username": lambda r: r.user.get_username(),
            "email": lambda r: r.user.email,
            "email_verified": lambda r: True,
        }

    # oauthlib calls these for prompt=none (with the openid scope).  Stock DOT does
    # not implement them, so prompt=none answers 500 (DOT issue #1268).  The
    # oauthlib request carries no session, so the real decisions (is someone logged
    # in? has the user consented before?) are made in views.AuthorizationView;
    # here we only let validation proceed.
    def validate_silent_login(self, request):
        return True

    def validate_silent_authorization(self, request):
        return True
