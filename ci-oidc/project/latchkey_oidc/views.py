from urllib.parse import urlencode

from django.utils import timezone
from oauth2_provider import views as dot_views
from oauth2_provider.exceptions import OAuthToolkitError
from oauth2_provider.models import get_access_token_model, get_application_model


class AuthorizationView(dot_views.AuthorizationView):
    """DOT's authorization view plus a working OIDC `prompt=none` (silent auth).

    - not logged in            -> redirect_uri?error=login_required&state=  (DOT already does this)
    - logged in, consented     -> redirect_uri?code=&state=&iss=            (no page shown)
    - logged in, no consent    -> redirect_uri?error=consent_required&state=
    "Consented" = the client has skip_authorization, or the user holds an unexpired
    access token for this client covering every requested scope (DOT's
    approval_prompt=auto rule).  Every other request is handled by stock DOT.
    """

    def get(self, request, *args, **kwargs):
        if "none" not in request.GET.get("prompt", "").split():
            return super().get(request, *args, **kwargs)
        try:
            scopes, credentials = self.validate_authorization_request(request)
        except OAuthToolkitError as error:
            return self.error_response(error, application=None)
        application = get_application_model().objects.get(client_id=credentials["client_id"])
        consented = application.skip_authorization or any(
            token.allow_scopes(scopes)
            for token in get_access_token_model().objects.filter(
                user=request.user, application=application, expires__gt=timezone.now()
            )
        )
        if not consented:
            params = {"error": "consent_required"}
            if credentials.get("state"):
                params["state"] = credentials["state"]
            redirect_uri = credentials["redirect_uri"]
            sep = "&" if "?" in redirect_uri else "?"
            return self.redirect(redirect_uri + sep + urlencode(params), application)
        credentials.pop("prompt", None)
        try:
            uri, _headers, _body, _status = self.create_authorization_response(
                request=request, scopes=" ".join(scopes), credentials=credentials, allow=True
            )
        except OAuthToolkitError as error:
            return self.error_response(error, application)
        return self.redirect(uri, application)
