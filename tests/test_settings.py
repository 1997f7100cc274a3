from pathlib import Path

import pytest

from readers import Settings


def test_defaults_need_nothing_configured(tmp_path):
    settings = Settings.from_env({}, env_file=tmp_path / "absent.env")
    assert settings == Settings()
    assert (settings.vision_provider, settings.vision_model, settings.local_whisper_model) == (
        "auto",
        "gpt-4o-mini",
        "tiny.en",
    )
    assert settings.cache_dir == Path(".readlens-cache") and settings.max_file_bytes == 25 * 1024 * 1024


def test_a_cache_folder_given_as_a_string_is_a_path(tmp_path):
    """Code passes a folder's name as a string: an Office file's print, filed under the cache's folder of
    LibreOffice profiles, once failed on it ("unsupported operand type(s) for /: 'str' and 'str'")."""
    assert Settings(cache_dir=str(tmp_path)).cache_dir == tmp_path


def test_environment_wins_over_dotenv_and_openai_names_are_fallbacks(tmp_path):
    env_file = tmp_path / ".env"
    env_file.write_text(
        "VISION_MODEL=from-file\nMAX_PAGES=7\nOPENAI_API_KEY=sk-file\nOPENAI_BASE_URL=http://fallback/v1\n"
    )
    settings = Settings.from_env(
        {"VISION_MODEL": "from-env", "WHISPER_BASE_URL": "http://whisper/v1", "MODEL_MULTIMODAL": "true"},
        env_file=env_file,
    )
    assert settings.vision_model == "from-env" and settings.max_pages == 7 and settings.multimodal
    assert settings.vision_api_key == "sk-file" and settings.vision_base_url == "http://fallback/v1"
    assert settings.whisper_base_url == "http://whisper/v1" and settings.whisper_api_key == "sk-file"


def test_a_key_never_shows_in_repr(tmp_path):
    settings = Settings.from_env({"VISION_API_KEY": "sk-secret-123"}, env_file=tmp_path / "none")
    assert "sk-secret-123" not in repr(settings) and "sk-secret-123" not in str(settings)


def test_a_bad_number_names_the_setting(tmp_path):
    with pytest.raises(ValueError, match="MAX_FILE_MB"):
        Settings.from_env({"MAX_FILE_MB": "lots"}, env_file=tmp_path / "none")


@pytest.mark.parametrize(
    "environ, public",
    [
        ({}, False),
        ({"READLENS_PUBLIC": "true"}, True),
        ({"SPACE_ID": "someone/readlens"}, True),
        ({"SPACE_ID": "someone/readlens", "READLENS_PUBLIC": "false"}, False),
        ({"SPACE_ID": "someone/readlens", "READLENS_PUBLIC": ""}, True),
    ],
)
def test_public_mode_is_on_by_itself_on_a_space_and_an_explicit_false_wins(tmp_path, environ, public):
    assert Settings.from_env(environ, env_file=tmp_path / "none").public is public


def test_the_vision_limit_is_configurable_and_positive(tmp_path):
    assert Settings.from_env({}, env_file=tmp_path / "none").vision_calls_per_minute == 30
    assert Settings.from_env({"VISION_CALLS_PER_MINUTE": "5"}, env_file=tmp_path / "none").vision_calls_per_minute == 5
    with pytest.raises(ValueError, match="VISION_CALLS_PER_MINUTE must be more than 0"):
        Settings.from_env({"VISION_CALLS_PER_MINUTE": "0"}, env_file=tmp_path / "none")


def test_whisper_hotwords_are_read_and_held_to_the_limit(tmp_path):
    assert Settings.from_env({}, env_file=tmp_path / "none").whisper_hotwords is None
    assert (
        Settings.from_env({"WHISPER_HOTWORDS": " Kubernetes, Zelensky "}, env_file=tmp_path / "none").whisper_hotwords
        == "Kubernetes, Zelensky"
    )
    with pytest.raises(ValueError, match="WHISPER_HOTWORDS is 501 characters long; give at most 500."):
        Settings.from_env({"WHISPER_HOTWORDS": "x" * 501}, env_file=tmp_path / "none")


@pytest.mark.parametrize(
    "environ, proxies",
    [
        ({}, ()),
        ({"SPACE_ID": "someone/readlens"}, ("private",)),
        ({"FORWARDED_ALLOW_IPS": "127.0.0.1, 10.0.0.0/8"}, ("127.0.0.1", "10.0.0.0/8")),
        ({"SPACE_ID": "someone/readlens", "FORWARDED_ALLOW_IPS": "10.1.2.3"}, ("10.1.2.3",)),
    ],
)
def test_proxies_are_trusted_only_as_configured_or_on_a_space(tmp_path, environ, proxies):
    assert Settings.from_env(environ, env_file=tmp_path / "none").forwarded_allow_ips == proxies


def test_a_proxy_that_is_no_address_names_the_setting(tmp_path):
    with pytest.raises(ValueError, match="FORWARDED_ALLOW_IPS takes addresses, networks, private or \\*, not 'proxy'"):
        Settings.from_env({"FORWARDED_ALLOW_IPS": "proxy"}, env_file=tmp_path / "none")
