from django.contrib.auth import views as auth_views
from django.http import HttpResponse
from django.urls import include, path
from oauth2_provider import urls as oauth2_urls

from latchkey_oidc.views import AuthorizationView


def home(request):
    who = request.user.get_username() if request.user.is_authenticated else "anonymous"
    return HttpResponse(f"latchkey ci-oidc: {who}\n", content_type="text/plain")


urlpatterns = [
    path("", home, name="home"),
    path("accounts/login/", auth_views.LoginView.as_view(), name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    # DOT's authorize view + working prompt=none (see views.py); must precede the include.
    path("o/authorize/", AuthorizationView.as_view(), name="authorize"),
    # All of DOT under /o/ (issuer = http://127.0.0.1:PORT/o).
    path("o/", include(oauth2_urls)),
    # RFC 8414 path-component form at the origin root:
    # /.well-known/oauth-authorization-server/o
    path(
        "",
        include((oauth2_urls.metadata_urlpatterns, "oauth2_provider"), namespace="oauth2_root_metadata"),
    ),
]
