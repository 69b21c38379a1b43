from django.contrib.auth.hashers import PBKDF2PasswordHasher


class FastPBKDF2PasswordHasher(PBKDF2PasswordHasher):
    """CI only: 1,000 PBKDF2 rounds instead of Django's 1,000,000, so every login
    and every client-secret check costs microseconds instead of ~0.5 s."""

    iterations = 1000
