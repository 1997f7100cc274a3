from pathlib import Path

import pytest

from readers import Settings


def test_defaults_need_nothing_configured(tmp_path):
    settings = Settings.from_env({}, env_file=tmp_path / "absent.env")
    assert settings == Settings()
    assert (settings.vision_provider, settings.vision_model, settings.local_whisper_model) == ("auto", "gpt-4o-mini", "tiny.en")
    assert settings.cache_dir == Path(".readlens-cache") and settings.max_file_bytes == 25 * 1024 * 1024


def test_environment_wins_over_dotenv_and_openai_names_are_fallbacks(tmp_path):
    env_file = tmp_path / ".env"
    env_file.write_text("VISION_MODEL=from-file\nMAX_PAGES=7\nOPENAI_API_KEY=sk-file\nOPENAI_BASE_URL=http://fallback/v1\n")
    settings = Settings.from_env({"VISION_MODEL": "from-env", "WHISPER_BASE_URL": "http://whisper/v1", "MODEL_MULTIMODAL": "true"}, env_file=env_file)
    assert settings.vision_model == "from-env" and settings.max_pages == 7 and settings.multimodal
    assert settings.vision_api_key == "sk-file" and settings.vision_base_url == "http://fallback/v1"
    assert settings.whisper_base_url == "http://whisper/v1" and settings.whisper_api_key == "sk-file"


def test_a_key_never_shows_in_repr(tmp_path):
    settings = Settings.from_env({"VISION_API_KEY": "sk-secret-123"}, env_file=tmp_path / "none")
    assert "sk-secret-123" not in repr(settings) and "sk-secret-123" not in str(settings)


def test_a_bad_number_names_the_setting(tmp_path):
    with pytest.raises(ValueError, match="MAX_FILE_MB"):
        Settings.from_env({"MAX_FILE_MB": "lots"}, env_file=tmp_path / "none")
