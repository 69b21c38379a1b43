"""Settings of the CI-only OpenID Connect provider (django-oauth-toolkit 3.4.1).

Nothing here is secret or fit for production: it exists so that Latchkey's Swift
integration tests can run every flow against a real provider on 127.0.0.1.

Environment:
  LATCHKEY_OIDC_PORT     port the server listens on (default 9400); the issuer is
                         exactly http://127.0.0.1:PORT/o
  LATCHKEY_OIDC_WORKDIR  where the sqlite DB and the RSA key live
                         (default: ci-oidc/.work)
  LATCHKEY_OIDC_DEVICE_INTERVAL  polling interval (s) announced by the device
                         authorization endpoint (default 1, to keep CI fast)
  LATCHKEY_OIDC_DEBUG    "1" turns Django's DEBUG on (tracebacks in responses)
"""

import os
from pathlib import Path

PROJECT_DIR = Path(__file__).resolve().parent.parent  # ci-oidc/project
CI_OIDC_DIR = PROJECT_DIR.parent  # ci-oidc
WORK_DIR = Path(os.environ.get("LATCHKEY_OIDC_WORKDIR") or (CI_OIDC_DIR / ".work")).resolve()
WORK_DIR.mkdir(parents=True, exist_ok=True)

PORT = int(os.environ.get("LATCHKEY_OIDC_PORT") or "9400")
ORIGIN = f"http://127.0.0.1:{PORT}"
ISSUER = f"{ORIGIN}/o"

SECRET_KEY = "latchkey-ci-oidc-not-a-secret"
DEBUG = os.environ.get("LATCHKEY_OIDC_DEBUG") == "1"
ALLOWED_HOSTS = ["127.0.0.1", "localhost", "[::1]"]

INSTALLED_APPS = [
    "latchkey_oidc",  # first: its templates (registration/login.html) win
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",  # DOT's templates use {% static %}
    "oauth2_provider",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
]

ROOT_URLCONF = "latchkey_oidc.urls"
WSGI_APPLICATION = "latchkey_oidc.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

DATABASES = {
    "default": {
        "ENGINE": "django.db.backends.sqlite3",
        "NAME": str(WORK_DIR / "db.sqlite3"),
        # runserver is threaded: wait for sqlite's write lock instead of failing.
        "OPTIONS": {"timeout": 20},
    }
}

# Fast hashing (CI only): the password and the client secret are checked on every
# login / token request.
PASSWORD_HASHERS = [
    "latchkey_oidc.hashers.FastPBKDF2PasswordHasher",
    "django.contrib.auth.hashers.PBKDF2PasswordHasher",
]
AUTH_PASSWORD_VALIDATORS = []

LANGUAGE_CODE = "en-us"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True
STATIC_URL = "static/"
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

LOGIN_URL = "/accounts/login/"
LOGIN_REDIRECT_URL = "/"
LOGOUT_REDIRECT_URL = "/"

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "loggers": {
        "django": {"handlers": ["console"], "level": "INFO"},
        "oauth2_provider": {"handlers": ["console"], "level": "INFO"},
        "oauthlib": {"handlers": ["console"], "level": "INFO"},
    },
}


def _rsa_private_key_pem() -> str:
    """Return the provider's RS256 signing key, generating it on first use.

    setup.sh triggers the generation (via `manage.py seed_latchkey`); the key is
    stored in WORK_DIR so it stays stable across server restarts.
    """
    path = WORK_DIR / "oidc_rsa_private_key.pem"
    if not path.exists():
        from cryptography.hazmat.primitives import serialization
        from cryptography.hazmat.primitives.asymmetric import rsa

        key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
        pem = key.private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.TraditionalOpenSSL,
            serialization.NoEncryption(),
        )
        tmp = path.with_suffix(f".tmp{os.getpid()}")
        tmp.write_bytes(pem)
        os.chmod(tmp, 0o600)
        os.replace(tmp, path)
    return path.read_text()


def pkce_required(client_id: str) -> bool:
    """PKCE is mandatory for public clients, optional for confidential ones."""
    from oauth2_provider.models import get_application_model

    app = get_application_model().objects.filter(client_id=client_id).only("client_type").first()
    return app is None or app.client_type == app.CLIENT_PUBLIC


OAUTH2_PROVIDER = {
    # OpenID Connect
    "OIDC_ENABLED": True,
    "OIDC_RSA_PRIVATE_KEY": _rsa_private_key_pem(),
    "OIDC_ISS_ENDPOINT": ISSUER,
    "OIDC_RP_INITIATED_LOGOUT_ENABLED": True,
    # Logout with an id_token_hint of the logged-in user ends the session without a
    # confirmation page; without a (matching) hint the confirmation form is shown.
    "OIDC_RP_INITIATED_LOGOUT_ALWAYS_PROMPT": False,
    "OAUTH2_VALIDATOR_CLASS": "latchkey_oidc.validators.LatchkeyOAuth2Validator",
    "SCOPES": {
        "openid": "OpenID Connect",
        "profile": "Your name",
        "email": "Your email address",
    },
    "DEFAULT_SCOPES": ["openid"],
    # Authorization code + PKCE
    "PKCE_REQUIRED": pkce_required,
    "COMPLIANT_BCP_RFC9700_PKCE_METHOD": True,  # S256 only ("plain" is rejected)
    "COMPLIANT_BCP_RFC9700_IMPLICIT_GRANT": True,  # no implicit / hybrid token responses
    "COMPLIANT_BCP_RFC9700_PASSWORD_GRANT": True,  # no ROPC
    "COMPLIANT_BCP_RFC9700_ACCESS_TOKEN_TRANSPORT": True,  # bearer only in the header/body
    "COMPLIANT_BCP_RFC9700_AUTHZ_RESPONSE_ISS": True,  # RFC 9207: iss= on the redirect
    "ALLOWED_REDIRECT_URI_SCHEMES": ["http", "https", "dev.latchkey.test"],
    # Always show the consent page (unless Application.skip_authorization).
    "REQUEST_APPROVAL_PROMPT": "force",
    # Refresh tokens: rotate on every use; replaying a used one is invalid_grant
    # and (reuse protection) revokes the whole token family.
    "ROTATE_REFRESH_TOKEN": True,
    "REFRESH_TOKEN_REUSE_PROTECTION": True,
    "REFRESH_TOKEN_GRACE_PERIOD_SECONDS": 0,
    # Lifetimes
    "AUTHORIZATION_CODE_EXPIRE_SECONDS": 120,
    "ACCESS_TOKEN_EXPIRE_SECONDS": 3600,
    "ID_TOKEN_EXPIRE_SECONDS": 3600,
    # Device authorization grant (RFC 8628)
    "OAUTH_DEVICE_VERIFICATION_URI": f"{ISSUER}/device/",
    "OAUTH_DEVICE_VERIFICATION_URI_COMPLETE": f"{ISSUER}/device/?user_code={{user_code}}",
    "DEVICE_FLOW_INTERVAL": int(os.environ.get("LATCHKEY_OIDC_DEVICE_INTERVAL") or "1"),
}
