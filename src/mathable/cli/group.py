"""The ``mathable`` command group and its commands' class, speaking the reader's language.

Everything speaks the reader's language (:mod:`mathable.i18n`): ``--lang``, else the
environment (``LANGUAGE``, ``LC_ALL``, ``LC_MESSAGES``, ``LANG``), chosen before anything
is printed; help texts are kept as lazy texts and shown in it (:func:`_localize`), typer's
own words too (``[default: …]``), and a value's kind in words (``NUMBER``), not a Python
type. A usage error is said in it too (:func:`_usage_error`), and a refusal raised in any
command becomes one ``error: …`` line (:class:`Commands`)."""

from __future__ import annotations

import re
import unicodedata
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.text import Text
from typer import rich_utils
from typer._click import Command as ClickCommand
from typer._click import Context, HelpFormatter
from typer._click.exceptions import (
    BadOptionUsage,
    BadParameter,
    ClickException,
    MissingParameter,
    NoSuchOption,
)
from typer.core import TyperArgument, TyperCommand, TyperGroup, TyperOption
from typer.exceptions import TyperException

from mathable import __version__, i18n
from mathable.i18n import _, lazy

from ._later import later
from .shell import console, err, fail, helps, one_line, shown_help

if TYPE_CHECKING:
    from mathable.engine import errors
else:
    errors = later("mathable.engine.errors")


def _localize(command: ClickCommand, ctx: Context) -> None:
    """Put ``command``'s help texts, its parameters' and (for the group) its commands' in
    the current language, and the titles of the help's panels, just before its help is
    shown (the commands are made afresh for each run)."""
    command.help = shown_help(command.help)
    command.short_help = shown_help(command.short_help)
    _typer_texts()
    for param in command.get_params(ctx):
        if isinstance(param, TyperArgument):
            param.help = shown_help(param.help)
            word = _value_word(param.display_type(ctx))
            setattr(param, "display_type_rich", lambda ctx, word=word: word)  # noqa: B010
            if not param.rich_help_panel:  # unset (None, or typer's placeholder)
                # TRANSLATORS: the title of the help's panel of a command's arguments
                param.rich_help_panel = _("Arguments")
        elif isinstance(param, TyperOption):
            param.help = shown_help(param.help)
            param.metavar = _metavar(param, ctx)
            if not param.rich_help_panel:  # unset (None, or typer's placeholder)
                # TRANSLATORS: the title of the help's panel of a command's options
                param.rich_help_panel = _("Options")
    if isinstance(command, TyperGroup):
        for name in command.list_commands(ctx):
            sub = command.get_command(ctx, name)
            if isinstance(sub, (TyperCommand, TyperGroup)):
                sub.help = shown_help(sub.help)
                sub.short_help = shown_help(sub.short_help)
                if not sub.rich_help_panel:  # unset (None, or typer's placeholder)
                    # TRANSLATORS: the title of the help's panel listing the commands
                    sub.rich_help_panel = _("Commands")


def _typer_texts() -> None:
    """Typer's own words in its help panels in the current language (it takes them
    from gettext's default domain when imported, so English: they are put in here)."""
    from typer import rich_utils

    # TRANSLATORS: after an option's help: its value when not given; {} is that value
    rich_utils.DEFAULT_STRING = _("[default: {}]")
    # TRANSLATORS: after an option's help: the environment variable it reads; {} its name
    rich_utils.ENVVAR_STRING = _("[env var: {}]")
    # TRANSLATORS: after the help of an option or argument that must be given
    rich_utils.REQUIRED_LONG_STRING = _("[required]")
    rich_utils.DEPRECATED_STRING = _("(deprecated)") + " "


def _metavar(option: TyperOption, ctx: Context) -> str | None:
    """What an option's value is, in words of the help (``NUMBER``, ``TEXT``, ``FILE``),
    instead of typer's Python types (``<int>``, ``<list[str]>``); nothing for a flag."""
    if option.is_flag:
        return ""
    if option.metavar and not option.metavar.startswith("<"):
        return option.metavar  # chosen by the command (--lang's languages)
    return _value_word(option.display_type(ctx))


def _value_word(typed: str) -> str:
    """A value's kind in the help's words, from typer's ``<int>``, ``<int range>``,
    ``<path>``, ``<list[str]>``."""
    many = typed.startswith("<list[")
    if typed.startswith(("<int", "<float", "<list[int", "<list[float")):
        # TRANSLATORS: in the help, what an option's value is: a number
        word = _("NUMBER")
    elif typed.startswith(("<path", "<file", "<dir", "<list[path")):
        # TRANSLATORS: in the help, what an option's value is: a file or folder name
        word = _("FILE")
    else:
        # TRANSLATORS: in the help, what an option's value is: any text
        word = _("TEXT")
    return f"{word}…" if many else word


def _usage_error(self: ClickException) -> None:
    """A usage error (an unknown command or option, a bad value) in the reader's
    language: the usage line, where to find help, and one ``error: …`` line (typer's
    own, which it prints in English, is replaced by this: see :data:`Commands`)."""
    error = self  # typer calls it as a method of the error
    if type(error).__name__ == "NoArgsIsHelpError":
        return  # the help was shown
    ctx = getattr(error, "ctx", None)
    if ctx is not None:
        err.print(Text(ctx.get_usage()), soft_wrap=True)
        if ctx.command.get_help_option(ctx) is not None:
            command = f"{ctx.command_path} {ctx.help_option_names[0]}"
            # TRANSLATORS: after a usage error; {command} is typed as it is
            err.print(Text(_("Try '{command}' for help.", command=command)), soft_wrap=True)
    said = Text.assemble((_("error:"), "bold red"), f" {one_line(_usage_words(error))}")
    err.print(said, soft_wrap=True)


def _usage_words(error: ClickException) -> str:
    """What a usage error says, in the reader's language (click's own message where it
    is not one of those known)."""
    message = error.message
    if isinstance(error, NoSuchOption):
        said = _("no such option: {option}", option=error.option_name)
        if error.possibilities:
            options = ", ".join(sorted(error.possibilities))
            said += " " + _("(did you mean {options}?)", options=options)
        return said
    if isinstance(error, BadOptionUsage):
        if "requires" in message:
            return _("{option} needs a value", option=error.option_name)
        if "does not take a value" in message:
            return _("{option} takes no value", option=error.option_name)
        return message
    if isinstance(error, MissingParameter):
        name = error.param.get_error_hint() if error.param is not None else ""
        return _("{name} is missing", name=name.strip("'"))
    if isinstance(error, BadParameter):
        param = error.param
        name = param.get_error_hint().strip("'") if param is not None else ""
        if isinstance(param, TyperOption | TyperArgument) and _is_number(param):
            low, high = getattr(param, "min", None), getattr(param, "max", None)
            if low is not None and high is not None:
                return _(
                    "{option} takes a whole number from {low} to {high}",
                    option=name,
                    low=low,
                    high=high,
                )
            if low is not None:
                return _("{option} takes a whole number, at least {low}", option=name, low=low)
            return _("{option} takes a whole number", option=name)
        # TRANSLATORS: a bad value given to an option or argument, then why
        return _("invalid value for {option}: {reason}", option=name, reason=message)
    unknown = re.fullmatch(r"No such command '(.*)'\.", message, re.DOTALL)
    if unknown:
        return _("no such command: {name}", name=unknown[1])
    extra = re.fullmatch(r"Got unexpected extra arguments? \((.*)\)", message, re.DOTALL)
    if extra:
        return _("unexpected extra argument: {arguments}", arguments=extra[1])
    if message == "Missing command.":
        return _("a command is missing")
    return message


def _is_number(param: TyperOption | TyperArgument) -> bool:
    """Whether ``param`` takes a whole number."""
    return param.type_descriptor.annotation is int


def _format_usage(command: ClickCommand, ctx: Context, formatter: HelpFormatter) -> None:
    """The usage line, its ``Usage:`` in the current language."""
    pieces = " ".join(command.collect_usage_pieces(ctx))
    # TRANSLATORS: the start of a command's usage line: Usage: mathable [OPTIONS] COMMAND
    formatter.write_usage(ctx.command_path, pieces, prefix=_("Usage:") + " ")


def _help_option(option: TyperOption | None) -> TyperOption | None:
    """The ``--help`` option, its help in the current language."""
    if option is not None:
        # TRANSLATORS: the help of the --help option
        option.help = _("Show this message and exit.")
    return option


def _language_asked(args: list[str]) -> str | None:
    """The language ``--lang`` asks for among the group's own options (before the
    command's name), or None."""
    expects_value = False
    for arg in args:
        if expects_value:
            return arg
        if arg == "--lang":
            expects_value = True
        elif arg.startswith("--lang="):
            return arg.partition("=")[2]
        elif not arg.startswith("-"):
            return None  # the command's name: its own arguments follow
    return None


def _choose_language(value: str | None) -> str | None:
    """``--lang``: speak ``value`` from now on; a language not offered is a usage error."""
    if value is None:
        return value
    if not i18n.known(value):
        raise typer.BadParameter(
            _(
                "{lang} is not a language offered; choose one of {languages}",
                lang=repr(one_line(value)),
                languages=", ".join(i18n.LANGUAGES),
            )
        )
    i18n.set_language(value, everywhere=True)
    return value


class _Localized(ClickCommand):
    """Help shown in the reader's language: the texts, the usage line and the help
    option (mixed into the commands and the group)."""

    def format_help(self, ctx: Context, formatter: HelpFormatter) -> None:
        _localize(self, ctx)
        super().format_help(ctx, formatter)

    def format_usage(self, ctx: Context, formatter: HelpFormatter) -> None:
        _format_usage(self, ctx, formatter)

    def get_help_option(self, ctx: Context) -> TyperOption | None:
        return _help_option(super().get_help_option(ctx))


class Command(_Localized, TyperCommand):
    """A command whose help is shown in the reader's language."""


class Commands(_Localized, TyperGroup):
    """The command group: it speaks the reader's language (``--lang``, else the
    environment's) from the start of a run to its end; a refusal raised anywhere in a
    command (every :class:`MathableError`) becomes one error line and exit code 1;
    anything unforeseen becomes one line too, named an internal error, instead of a
    traceback."""

    def main(self, *args: Any, **kwargs: Any) -> Any:
        with i18n.language(i18n.from_environment(), everywhere=True):
            return super().main(*args, **kwargs)

    def parse_args(self, ctx: Context, args: list[str]) -> list[str]:
        for number, arg in enumerate(args, start=1):
            if any(unicodedata.category(c) == "Cs" for c in arg):  # undecodable bytes
                raise fail(
                    _(
                        "argument {number} ({argument}) is not valid UTF-8 text",
                        number=number,
                        argument=one_line(arg),
                    )
                )
        asked = _language_asked(args)
        if asked is not None and i18n.known(asked):
            i18n.set_language(asked, everywhere=True)  # before any message, --help's too
        return super().parse_args(ctx, args)

    def invoke(self, ctx: Context) -> Any:
        try:
            return super().invoke(ctx)
        except (typer.Exit, typer.Abort, TyperException, EOFError, BrokenPipeError):
            raise  # exits, usage errors, and what the command runner handles itself
        except errors.MathableError as exc:
            raise fail(str(exc)) from None
        except RecursionError:
            raise fail(_("the input is nested too deeply")) from None
        except Exception as exc:
            error = f"{type(exc).__name__}: {exc}"
            # TRANSLATORS: {error} is the program's own error, as Python names it
            raise fail(_("internal error ({error}); please report it", error=error)) from None


rich_utils.rich_format_error = _usage_error  # typer's own is in English, always


def _print_version(value: bool) -> None:
    if value:
        console.print(Text(f"mathable {__version__}"))
        raise typer.Exit()


def _options(
    version: Annotated[
        bool,
        typer.Option(
            "--version",
            callback=_print_version,
            is_eager=True,
            help=helps(lazy("Print the version.")),
        ),
    ] = False,
    lang: Annotated[
        str | None,
        typer.Option(
            "--lang",
            callback=_choose_language,
            is_eager=True,
            metavar="|".join(i18n.LANGUAGES),
            help=helps(
                # TRANSLATORS: the help of the --lang option; the variables are named as
                # they are
                lazy(
                    "The language of messages: {languages} (else the environment's: "
                    "LANGUAGE, LC_ALL, LC_MESSAGES, LANG).",
                    languages=", ".join(i18n.LANGUAGES),
                )
            ),
        ),
    ] = None,
) -> None:
    """The options of every command: the version, and the language (set by their
    callbacks)."""


def new_app() -> typer.Typer:
    """The ``mathable`` command group, without its commands (:mod:`.main` adds them)."""
    app = typer.Typer(
        cls=Commands,
        help=helps(
            lazy("Mathable, the crossnumber game: play, score sheets, records and analysis.")
        ),
        no_args_is_help=True,
        add_completion=False,
        pretty_exceptions_enable=False,
        context_settings={"help_option_names": ["-h", "--help"]},
    )
    app.callback()(_options)
    return app
