"""`reportgen demo`: regenerate the bundled demonstration rounds."""

from __future__ import annotations

from pathlib import Path

import click

from reportgen.cli.params import path_option


@click.group()
def demo() -> None:
    """Generated demonstration rounds that reproduce the article's figures."""


@demo.command()
@path_option(
    "--out",
    "out_dir",
    folder=True,
    default=Path("rounds"),
    help="Folder that receives the two round archives (each must not exist yet).",
)
@path_option(
    "--multidomain-out",
    "multidomain_dir",
    folder=True,
    help="Folder that receives the two REG-BC-2026-001 demonstration rounds (kind multidomain); "
    "default: examples/multidomain/rounds beside the --out folder.",
)
@path_option(
    "--counterfactual-out",
    "counterfactual_dir",
    folder=True,
    help="Folder that receives the Casa Ipê counterfactual audit rounds (kind "
    "counterfactual, before and after the fix); default: examples/counterfactual/rounds "
    "beside the --out folder.",
)
def generate(out_dir: Path, multidomain_dir: Path | None, counterfactual_dir: Path | None) -> None:
    """Regenerate the demonstration rounds from their fixed seeds.

    Writes estigmas-2026-06 (full round, seven models) and idje-avalia-2026-07
    (continuous round, 28 models, two annulled items) under --out, reg-2026-1 and
    reg-2026-2 (REG-BC-2026-001: 15 participants, 700 items, 3 runs; the second round
    applies bank v1.1) under --multidomain-out, and
    atendimento-2026-09 and atendimento-2026-10 (a counterfactual audit battery, before
    and after a fix) under --counterfactual-out. The output is byte-identical to the
    archives committed under rounds/, examples/multidomain/rounds/ and
    examples/counterfactual/rounds/.
    """
    from reportgen.demo.counterfactual.rounds import ROUND_IDS, write_counterfactual_rounds
    from reportgen.demo.generate import CONTINUOUS_ROUND_ID, FULL_ROUND_ID, generate_demo_rounds
    from reportgen.demo.multidomain.reg import ROUND_ID, write_reg_round
    from reportgen.demo.multidomain.reg_next import ROUND_ID as NEXT_ROUND_ID
    from reportgen.demo.multidomain.reg_next import write_next_round
    from reportgen.errors import OutputExistsError

    examples = out_dir.parent / "examples"
    if multidomain_dir is None:
        multidomain_dir = examples / "multidomain" / "rounds"
    if counterfactual_dir is None:
        counterfactual_dir = examples / "counterfactual" / "rounds"
    # Checked up front so that a refusal leaves nothing written; every one is named (a
    # clone holds them all: the committed archives).
    targets = [
        *(out_dir / r for r in (FULL_ROUND_ID, CONTINUOUS_ROUND_ID)),
        multidomain_dir / ROUND_ID,
        multidomain_dir / NEXT_ROUND_ID,
        *(counterfactual_dir / r for r in ROUND_IDS),
    ]
    existing = [str(target) for target in targets if target.exists()]
    if existing:
        raise OutputExistsError(
            f"{', '.join(existing)}: already exist, and demonstration rounds are never "
            "overwritten; to regenerate them elsewhere, give --out a new folder (e.g. "
            "--out /tmp/demo/rounds: the other kinds go to /tmp/demo/examples/)"
        )
    out_dir.mkdir(parents=True, exist_ok=True)
    written = generate_demo_rounds(out_dir)
    click.echo(f"wrote {written.full}")
    click.echo(f"wrote {written.continuous}")
    click.echo(f"wrote {write_reg_round(multidomain_dir)}")
    click.echo(f"wrote {write_next_round(multidomain_dir)}")
    for written_round in write_counterfactual_rounds(counterfactual_dir):
        click.echo(f"wrote {written_round}")
