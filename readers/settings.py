"""Settings from the environment (and a ``.env`` file in the working directory).

Every name here is documented in ``.env.example``. Real environment variables win over ``.env``.
"""

from __future__ import annotations

import ipaddress
import os
import re
from dataclasses import dataclass
from pathlib import Path

from dotenv import dotenv_values


def _flag(value: str | None, default: bool) -> bool:
    if value is None or value.strip() == "":
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


def _number(env: dict, name: str, default: float) -> float:
    raw = env.get(name)
    if raw is None or raw.strip() == "":
        return default
    try:
        return float(raw)
    except ValueError:
        raise ValueError(f"{name} must be a number, not {raw!r}") from None


VISION_PROVIDERS = ("auto", "openai", "ocr", "none")
WHISPER_DEVICES = ("auto", "cpu", "cuda")
POSITIVE = (
    "max_file_mb",
    "max_pages",
    "max_image_side",
    "render_dpi",
    "office_timeout",
    "page_timeout",
    "read_timeout",
    "vision_timeout",
    "whisper_timeout",
    "max_audio_minutes",
    "vision_calls_per_minute",
    "url_timeout",
    "url_download_timeout",
)
HOST_NAME = re.compile(r"^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*$")
# faster-whisper keeps at most 223 tokens of hotwords; 500 characters of names stay well inside that.
MAX_HOTWORDS_CHARS = 500


@dataclass(frozen=True)
class Settings:
    cache_dir: Path = Path(".readlens-cache")
    max_file_mb: float = 25
    max_pages: int = 50
    max_image_side: int = 2048
    render_dpi: int = 150
    office_timeout: float = 120
    page_timeout: float = 60
    read_timeout: float = 60
    multimodal: bool = False
    vision_provider: str = "auto"
    vision_api_key: str | None = None
    vision_base_url: str | None = None
    vision_model: str = "gpt-4o-mini"
    vision_timeout: float = 120
    vision_concurrency: int = 4
    whisper_api_key: str | None = None
    whisper_base_url: str | None = None
    whisper_model: str = "whisper-1"
    whisper_timeout: float = 300
    use_local_whisper: bool = True
    local_whisper_model: str = "tiny.en"
    whisper_language: str | None = None
    whisper_hotwords: str | None = None
    whisper_device: str = "auto"
    max_audio_minutes: float = 120
    mcp_server: bool = True
    public: bool = False
    vision_calls_per_minute: int = 30
    # the proxies whose X-Forwarded-For names the visitor: addresses, networks, "private" or "*"
    forwarded_allow_ips: tuple[str, ...] = ()
    # hosts (names) and networks a URL may reach though they are not public; none in public mode
    url_allow: tuple[str, ...] = ()
    url_timeout: float = 20
    url_download_timeout: float = 120

    def __post_init__(self):
        object.__setattr__(self, "cache_dir", Path(self.cache_dir))  # a folder given as a string is a path too
        if self.vision_provider not in VISION_PROVIDERS:
            raise ValueError(
                f"VISION_PROVIDER must be one of {', '.join(VISION_PROVIDERS)}, not {self.vision_provider!r}"
            )
        if self.whisper_device not in WHISPER_DEVICES:
            raise ValueError(f"WHISPER_DEVICE must be one of {', '.join(WHISPER_DEVICES)}, not {self.whisper_device!r}")
        for name in POSITIVE:
            if not getattr(self, name) > 0:
                raise ValueError(f"{name.upper()} must be more than 0, not {getattr(self, name)!r}")
        for entry in self.forwarded_allow_ips:
            if entry not in ("*", "private"):
                try:
                    ipaddress.ip_network(entry, strict=False)
                except ValueError:
                    raise ValueError(
                        f"FORWARDED_ALLOW_IPS takes addresses, networks, private or *, not {entry!r}"
                    ) from None
        for entry in self.url_allow:
            if not HOST_NAME.match(entry):
                try:
                    ipaddress.ip_network(entry, strict=False)
                except ValueError:
                    raise ValueError(
                        f"URL_ALLOW takes host names, addresses and networks (e.g. 10.0.0.0/8), not {entry!r}"
                    ) from None
        if self.whisper_hotwords and len(self.whisper_hotwords) > MAX_HOTWORDS_CHARS:
            raise ValueError(
                f"WHISPER_HOTWORDS is {len(self.whisper_hotwords):,} characters "
                f"long; give at most {MAX_HOTWORDS_CHARS}."
            )

    @classmethod
    def from_env(cls, environ: dict | None = None, env_file: str | Path = ".env") -> Settings:
        """Build settings from ``environ`` (default: ``os.environ``) over the ``.env`` file; what neither
        sets keeps the default above."""
        env = {k: v for k, v in dotenv_values(env_file).items() if v is not None} if Path(env_file).is_file() else {}
        env.update(os.environ if environ is None else environ)
        get = lambda name: (env.get(name) or "").strip() or None
        return cls(
            cache_dir=Path(get("READLENS_CACHE_DIR") or cls.cache_dir),
            max_file_mb=_number(env, "MAX_FILE_MB", cls.max_file_mb),
            max_pages=int(_number(env, "MAX_PAGES", cls.max_pages)),
            max_image_side=int(_number(env, "MAX_IMAGE_SIDE", cls.max_image_side)),
            render_dpi=int(_number(env, "RENDER_DPI", cls.render_dpi)),
            office_timeout=_number(env, "OFFICE_TIMEOUT", cls.office_timeout),
            page_timeout=_number(env, "PAGE_TIMEOUT", cls.page_timeout),
            read_timeout=_number(env, "READ_TIMEOUT", cls.read_timeout),
            multimodal=_flag(get("MODEL_MULTIMODAL"), cls.multimodal),
            vision_provider=(get("VISION_PROVIDER") or cls.vision_provider).lower(),
            vision_api_key=get("VISION_API_KEY") or get("OPENAI_API_KEY"),
            vision_base_url=get("VISION_BASE_URL") or get("OPENAI_BASE_URL"),
            vision_model=get("VISION_MODEL") or cls.vision_model,
            vision_timeout=_number(env, "VISION_TIMEOUT", cls.vision_timeout),
            vision_concurrency=max(1, int(_number(env, "VISION_CONCURRENCY", cls.vision_concurrency))),
            whisper_api_key=get("WHISPER_API_KEY") or get("OPENAI_API_KEY"),
            whisper_base_url=get("WHISPER_BASE_URL") or get("OPENAI_BASE_URL"),
            whisper_model=get("WHISPER_MODEL") or cls.whisper_model,
            whisper_timeout=_number(env, "WHISPER_TIMEOUT", cls.whisper_timeout),
            use_local_whisper=_flag(get("USE_LOCAL_WHISPER"), cls.use_local_whisper),
            local_whisper_model=get("LOCAL_WHISPER_MODEL") or cls.local_whisper_model,
            whisper_language=get("WHISPER_LANGUAGE"),
            whisper_hotwords=get("WHISPER_HOTWORDS"),
            whisper_device=(get("WHISPER_DEVICE") or cls.whisper_device).lower(),
            max_audio_minutes=_number(env, "MAX_AUDIO_MINUTES", cls.max_audio_minutes),
            mcp_server=_flag(get("GRADIO_MCP_SERVER"), cls.mcp_server),
            public=_flag(get("READLENS_PUBLIC"), get("SPACE_ID") is not None),  # a Hugging Face Space sets SPACE_ID
            vision_calls_per_minute=int(_number(env, "VISION_CALLS_PER_MINUTE", cls.vision_calls_per_minute)),
            forwarded_allow_ips=tuple(  # a Space's proxy stands on a private address
                entry.strip()
                for entry in (get("FORWARDED_ALLOW_IPS") or ("private" if get("SPACE_ID") else "")).split(",")
                if entry.strip()
            ),
            url_allow=tuple(entry.strip().lower() for entry in (get("URL_ALLOW") or "").split(",") if entry.strip()),
            url_timeout=_number(env, "URL_TIMEOUT", cls.url_timeout),
            url_download_timeout=_number(env, "URL_DOWNLOAD_TIMEOUT", cls.url_download_timeout),
        )

    @property
    def max_file_bytes(self) -> int:
        return int(self.max_file_mb * 1024 * 1024)

    def __repr__(self) -> str:  # keys never reach a log line
        return (
            f"Settings(cache_dir={str(self.cache_dir)!r}, vision_provider={self.vision_provider!r}, "
            f"vision_model={self.vision_model!r}, "
            f"public={self.public!r})"
        )
