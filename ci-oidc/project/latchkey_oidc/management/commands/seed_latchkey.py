"""Idempotently create the test user and the three OAuth clients (see README.md)."""

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand
from django.db import transaction
from oauth2_provider.models import get_application_model

USER = {
    "username": "ada",
    "password": "latchkey-test-password",
    "email": "ada@example.com",
    "first_name": "Ada",
    "last_name": "Lovelace",
}


def clients(app):
    return [
        {
            "client_id": "latchkey-public",
            "name": "Latchkey Public (auth code + PKCE)",
            "client_type": app.CLIENT_PUBLIC,
            "authorization_grant_type": app.GRANT_AUTHORIZATION_CODE,
            "client_secret": "",
            "redirect_uris": "http://127.0.0.1/callback dev.latchkey.test://auth-callback",
            "post_logout_redirect_uris": "http://127.0.0.1/logout-callback dev.latchkey.test://logout-callback",
            "skip_authorization": False,
            "algorithm": app.RS256_ALGORITHM,
        },
        {
            "client_id": "latchkey-confidential",
            "name": "Latchkey Confidential (client credentials)",
            "client_type": app.CLIENT_CONFIDENTIAL,
            "authorization_grant_type": app.GRANT_CLIENT_CREDENTIALS,
            "client_secret": "latchkey-confidential-secret",
            "redirect_uris": "",
            "post_logout_redirect_uris": "",
            "skip_authorization": True,
            "algorithm": app.RS256_ALGORITHM,
        },
        {
            "client_id": "latchkey-device",
            "name": "Latchkey Device (device authorization grant)",
            "client_type": app.CLIENT_PUBLIC,
            "authorization_grant_type": app.GRANT_DEVICE_CODE,
            "client_secret": "",
            "redirect_uris": "",
            "post_logout_redirect_uris": "",
            "skip_authorization": False,
            "algorithm": app.RS256_ALGORITHM,
        },
    ]


def _secret_matches(provided, stored):
    from django.contrib.auth.hashers import check_password, identify_hasher

    try:
        identify_hasher(stored)
    except ValueError:
        return provided == stored
    return check_password(provided, stored)


class Command(BaseCommand):
    help = "Create/update the Latchkey CI user and OAuth clients (idempotent)."

    @transaction.atomic
    def handle(self, *args, **options):
        User = get_user_model()
        user, created = User.objects.get_or_create(username=USER["username"])
        user.email = USER["email"]
        user.first_name = USER["first_name"]
        user.last_name = USER["last_name"]
        user.is_active = True
        if created or not user.check_password(USER["password"]):
            user.set_password(USER["password"])
        user.save()
        self.stdout.write(f"user {user.username} (pk={user.pk}) {'created' if created else 'up to date'}")

        Application = get_application_model()
        for spec in clients(Application):
            spec = dict(spec)
            client_id = spec.pop("client_id")
            secret = spec.pop("client_secret")
            app = Application.objects.filter(client_id=client_id).first()
            created = app is None
            if created:
                app = Application(client_id=client_id)
            for key, value in spec.items():
                setattr(app, key, value)
            # The secret is hashed on save; only (re)set it when it no longer matches.
            if created or (secret and not _secret_matches(secret, app.client_secret)):
                app.client_secret = secret
            app.full_clean(exclude=["client_secret", "user"])
            app.save()
            self.stdout.write(f"client {client_id} {'created' if created else 'up to date'}")
