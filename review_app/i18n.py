"""The review app's message catalogue: pt-BR (default) and English.

Both dictionaries must have the same keys (a test checks it); a missing key is a bug,
so `translate` raises instead of falling back to another language.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache

from babel import Locale

from reportgen.model import TEXT_LANGUAGES
from review_app.i18n_admin import ADMIN_EN, ADMIN_PT_BR

LANGUAGES: tuple[str, ...] = TEXT_LANGUAGES
DEFAULT_LANGUAGE = "pt-BR"
LANGUAGE_NAMES: Mapping[str, str] = {"pt-BR": "Português (Brasil)", "en": "English"}

PT_BR: Mapping[str, str] = {
    # errors
    "error_account_name": "O nome da conta deve ter de 1 a 80 caracteres.",
    "error_role": "Papel desconhecido: {role}. Use um destes: {roles}.",
    "error_password_short": "A senha deve ter pelo menos {minimum} caracteres.",
    "error_account_exists": "Já existe uma conta chamada {name}.",
    "error_login": "Nome ou senha incorretos.",
    "error_login_throttled": "Muitas tentativas sem sucesso. Tente de novo em {seconds} s.",
    "error_session": "Sua sessão expirou ou não é válida. Entre novamente.",
    "error_forbidden": "Sua conta não tem permissão para esta ação.",
    "error_fraction": "A fração deve estar entre 0 (exclusive) e 1; recebi {value}.",
    "error_min_per_stratum": "O mínimo por estrato não pode ser negativo; recebi {value}.",
    "error_choice": "Opção desconhecida: {choice}.",
    "error_batch_closed": "O lote da amostra {code} foi fechado; o julgamento não muda mais.",
    "error_note_required": "Explique numa nota por que a resposta é inclassificável.",
    "error_note_blank": "A nota contém só espaços. Escreva o texto ou deixe-a vazia.",
    "error_note_long": "A nota tem {length} caracteres; o máximo é {maximum}.",
    "error_unknown_sample": "A amostra {code} não está na sua fila.",
    "error_unknown_batch": "Não existe o lote {batch_id}.",
    "error_window_days": "O prazo de contestação deve ser de pelo menos 1 dia; recebi {value}.",
    "error_unknown_round": "A rodada {round_id} não está no banco de revisão.",
    "error_justification_short": (
        "A justificativa técnica deve ter pelo menos {minimum} caracteres."
    ),
    "error_justification_long": "A justificativa pode ter no máximo {maximum} caracteres.",
    "error_not_published": "A rodada {round_id} ainda não foi publicada.",
    "error_window_closed": "O prazo de contestação da rodada {round_id} terminou em {closes}.",
    "error_unknown_reference": "{reference} não é código de amostra nem item desta rodada.",
    "error_reply_both": "Para aceitar, escreva a resposta em português e em inglês.",
    "error_reply_missing": "Escreva uma resposta antes de decidir.",
    "error_reply_long": "A resposta pode ter no máximo {maximum} caracteres por idioma.",
    "error_unknown_contest": "Não existe a contestação {contest_id}.",
    "error_contest_decided": "A contestação {contest_id} já foi decidida.",
    "error_round_missing": "Não encontrei a rodada em {path}.",
    # shared
    "app_title": "Estigmas · revisão cega",
    "language": "Idioma",
    "name": "Nome",
    "password": "Senha",
    "login": "Entrar",
    "logout": "Sair",
    "navigation": "Páginas",
    "signed_in_as": "Conectado como {name}",
    "page_review": "Revisar",
    "page_contest": "Contestar",
    "page_guidelines": "Diretrizes",
    "page_calibration": "Calibração",
    "page_disagreements": "Divergências",
    "page_contestations": "Contestações",
    "page_batches": "Lotes",
    "round": "Rodada",
    "item": "Item",
    "model": "Modelo",
    "note_label": "Nota (opcional)",
    # reviewer
    "review_title": "Revisão",
    "guidelines_title": "Diretrizes de revisão",
    "progress": "{done} de {total} julgadas",
    "queue_empty": "Sua fila está vazia.",
    "queue_done": "Você julgou todas as amostras da fila. Ainda pode revisar as abertas.",
    "sample_heading": "Amostra {code} ({position} de {total})",
    "batch_closed_info": "Este lote foi fechado: o julgamento não pode mais mudar.",
    "prompt_label": "Pergunta",
    "output_label": "Resposta do sistema",
    "your_judgment": "Seu julgamento atual: {choice}",
    "note_help": "Obrigatória só para «Inclassificável».",
    "previous": "← Anterior",
    "next": "Próxima →",
    "shortcuts_help": "Atalhos: 1 a 5 escolhem e avançam; ← e → navegam.",
    # contestation
    "contest_title": "Contestar um item",
    "contest_help": (
        "Aponte um defeito técnico de um item, dentro do prazo após a publicação. "
        "A administração responde por escrito."
    ),
    "no_published_rounds": "Nenhuma rodada publicada aceita contestações agora.",
    "contest_reference": "Código da amostra ou identificador do item",
    "contest_justification": "Justificativa técnica",
    "contest_submit": "Enviar contestação",
    "contest_received": "Contestação {contest_id} recebida.",
    "my_contestations": "Suas contestações",
    "status_pending": "pendente",
    "status_accepted": "aceita",
    "status_rejected": "rejeitada",
    # admin
    "calibration_title": "Calibração",
    "progress_heading": "Progresso por revisor",
    "no_assignments": "Nenhuma amostra distribuída ainda.",
    "agreement_heading": "Concordância",
    "judged_samples": "Amostras julgadas",
    "kappa_majority": "κ de Cohen (consenso × parser)",
    "alpha_reviewers": "α de Krippendorff (revisores)",
    "kappa_help": (
        "κ compara no espaço da pontuação: recusa, inclassificável e inconclusivo contam "
        "como «não sei»."
    ),
    "reviewer": "Revisor",
    "kappa": "κ × parser",
    "confusion_heading": "Matriz de confusão (julgamentos × parser)",
    "reviewer_choice": "Julgamento",
    "parser_column": "parser: {label}",
    "agreement_by_model_heading": "Concordância do consenso com o parser, por modelo",
    "agreement": "Concordância",
    "disagreements_title": "Fila de divergências",
    "why_reviewers": "revisores divergem",
    "why_parser": "revisores contra o parser",
    "parser_label": "Rótulo do parser",
    "adjudication": "Decisão",
    "adjudicate": "Registrar decisão",
    "batches_title": "Lotes",
    "batch_line": "Lote {batch} · rodada {round} · {samples} · {status}",
    "open": "aberto",
    "closed": "fechado",
    "close_batch": "Fechar lote",
    "contestations_title": "Contestações recebidas",
    "no_contestations": "Nenhuma contestação.",
    "overdue": "RESPOSTA ATRASADA",
    "submitted_by": "Enviada por",
    "reply_pt": "Resposta (português)",
    "reply_en": "Resposta (inglês)",
    "accept": "Aceitar e anular o item",
    "reject": "Rejeitar",
    # the reviewer's annotation loop
    "note_draft": "Rascunho: a nota fica guardada aqui e só é gravada com o julgamento.",
    "undo": "↶ Desfazer: {code} → {choice}",
    "undo_nothing": "↶ Desfazer",
    "undo_help": "Desfaz o seu último julgamento enquanto o lote estiver aberto (tecla U).",
    "undone": "Julgamento da amostra {code} desfeito.",
    "note_of": "Nota de {name}",
    "contest_reply": "Resposta da administração",
    # durability: the round's identity, the ledger, the audit chain
    "error_round_unreadable": "Não consegui ler a rodada em {path}: {why}.",
    "error_round_identity_unknown": (
        "A rodada {round_id} entrou no banco de revisão sem SHA256SUMS; sem a identidade "
        "do arquivo, nada é acrescentado ao seu registro de anulações."
    ),
    "error_round_other_archive": (
        "A pasta {path} contém outro arquivo de rodada (rodada {found_round_id}, SHA256SUMS "
        "{found}…), não o registrado para a rodada {round_id} quando ela entrou no banco de "
        "revisão (SHA256SUMS {recorded}…). Nada foi gravado; restaure a pasta original."
    ),
    "error_contest_in_ledger": (
        "O registro de anulações já contém a aceitação da contestação {contest_id} (uma "
        "decisão anterior foi interrompida antes de ser salva); ela agora consta como "
        "aceita e não pode ser rejeitada."
    ),
    "error_audit_first_entry": (
        "Log de auditoria quebrado na entrada {entry}: a primeira entrada remanescente "
        "aponta para uma anterior, que foi removida."
    ),
    "error_audit_link": (
        "Log de auditoria quebrado na entrada {entry}: ela não traz o hash da entrada "
        "{previous}, que foi alterada, ou entradas entre as duas foram removidas."
    ),
    # administration: leak report, assignment, adjudication, agreement, plurals
    **ADMIN_PT_BR,
}

EN: Mapping[str, str] = {
    # errors
    "error_account_name": "An account name must have 1 to 80 characters.",
    "error_role": "Unknown role: {role}. Use one of: {roles}.",
    "error_password_short": "The password must have at least {minimum} characters.",
    "error_account_exists": "An account named {name} already exists.",
    "error_login": "Wrong name or password.",
    "error_login_throttled": "Too many failed attempts. Try again in {seconds} s.",
    "error_session": "Your session expired or is not valid. Please log in again.",
    "error_forbidden": "Your account is not allowed to do this.",
    "error_fraction": "The fraction must be above 0 and at most 1; got {value}.",
    "error_min_per_stratum": "The minimum per stratum cannot be negative; got {value}.",
    "error_choice": "Unknown option: {choice}.",
    "error_batch_closed": "The batch of sample {code} is closed; its judgment cannot change.",
    "error_note_required": "Please explain in a note why the answer is unclassifiable.",
    "error_note_blank": "The note holds only spaces. Write the text or leave it empty.",
    "error_note_long": "The note has {length} characters; the maximum is {maximum}.",
    "error_unknown_sample": "Sample {code} is not in your queue.",
    "error_unknown_batch": "There is no batch {batch_id}.",
    "error_window_days": "The contestation window must be at least 1 day; got {value}.",
    "error_unknown_round": "Round {round_id} is not in the review database.",
    "error_justification_short": (
        "The technical justification must have at least {minimum} characters."
    ),
    "error_justification_long": "The justification may have at most {maximum} characters.",
    "error_not_published": "Round {round_id} has not been published yet.",
    "error_window_closed": "The contestation window of round {round_id} closed on {closes}.",
    "error_unknown_reference": "{reference} is neither a sample code nor an item of this round.",
    "error_reply_both": "To accept, write the reply in Portuguese and in English.",
    "error_reply_missing": "Write a reply before deciding.",
    "error_reply_long": "A reply may have at most {maximum} characters per language.",
    "error_unknown_contest": "There is no contestation {contest_id}.",
    "error_contest_decided": "Contestation {contest_id} has already been decided.",
    "error_round_missing": "No round found at {path}.",
    # shared
    "app_title": "Estigmas · blind review",
    "language": "Language",
    "name": "Name",
    "password": "Password",
    "login": "Log in",
    "logout": "Log out",
    "navigation": "Pages",
    "signed_in_as": "Logged in as {name}",
    "page_review": "Review",
    "page_contest": "Contest",
    "page_guidelines": "Guidelines",
    "page_calibration": "Calibration",
    "page_disagreements": "Disagreements",
    "page_contestations": "Contestations",
    "page_batches": "Batches",
    "round": "Round",
    "item": "Item",
    "model": "Model",
    "note_label": "Note (optional)",
    # reviewer
    "review_title": "Review",
    "guidelines_title": "Reviewing guidelines",
    "progress": "{done} of {total} judged",
    "queue_empty": "Your queue is empty.",
    "queue_done": "You have judged every sample of your queue. Open ones can still be revised.",
    "sample_heading": "Sample {code} ({position} of {total})",
    "batch_closed_info": "This batch is closed: the judgment can no longer change.",
    "prompt_label": "Question",
    "output_label": "The system's answer",
    "your_judgment": "Your current judgment: {choice}",
    "note_help": "Required only for “Unclassifiable”.",
    "previous": "← Previous",
    "next": "Next →",
    "shortcuts_help": "Shortcuts: 1 to 5 choose and move on; ← and → navigate.",
    # contestation
    "contest_title": "Contest an item",
    "contest_help": (
        "Point out a technical defect of an item, within the window after publication. "
        "The administrators reply in writing."
    ),
    "no_published_rounds": "No published round accepts contestations now.",
    "contest_reference": "Sample code or item identifier",
    "contest_justification": "Technical justification",
    "contest_submit": "Send contestation",
    "contest_received": "Contestation {contest_id} received.",
    "my_contestations": "Your contestations",
    "status_pending": "pending",
    "status_accepted": "accepted",
    "status_rejected": "rejected",
    # admin
    "calibration_title": "Calibration",
    "progress_heading": "Progress per reviewer",
    "no_assignments": "No sample has been assigned yet.",
    "agreement_heading": "Agreement",
    "judged_samples": "Judged samples",
    "kappa_majority": "Cohen's κ (consensus × parser)",
    "alpha_reviewers": "Krippendorff's α (reviewers)",
    "kappa_help": (
        "κ compares in the scoring space: refusal, unclassifiable and inconclusive count "
        "as “can't tell”."
    ),
    "reviewer": "Reviewer",
    "kappa": "κ × parser",
    "confusion_heading": "Confusion matrix (judgments × parser)",
    "reviewer_choice": "Judgment",
    "parser_column": "parser: {label}",
    "agreement_by_model_heading": "Agreement of the consensus with the parser, per model",
    "agreement": "Agreement",
    "disagreements_title": "Disagreement queue",
    "why_reviewers": "reviewers disagree",
    "why_parser": "reviewers against the parser",
    "parser_label": "Parser label",
    "adjudication": "Decision",
    "adjudicate": "Record decision",
    "batches_title": "Batches",
    "batch_line": "Batch {batch} · round {round} · {samples} · {status}",
    "open": "open",
    "closed": "closed",
    "close_batch": "Close batch",
    "contestations_title": "Contestations received",
    "no_contestations": "No contestations.",
    "overdue": "REPLY OVERDUE",
    "submitted_by": "Sent by",
    "reply_pt": "Reply (Portuguese)",
    "reply_en": "Reply (English)",
    "accept": "Accept and annul the item",
    "reject": "Reject",
    # the reviewer's annotation loop
    "note_draft": "Draft: the note is kept here and recorded only with the judgment.",
    "undo": "↶ Undo: {code} → {choice}",
    "undo_nothing": "↶ Undo",
    "undo_help": "Takes back your last judgment while its batch is open (key U).",
    "undone": "The judgment of sample {code} was taken back.",
    "note_of": "Note by {name}",
    "contest_reply": "The administrators' reply",
    # durability: the round's identity, the ledger, the audit chain
    "error_round_unreadable": "Could not read the round at {path}: {why}.",
    "error_round_identity_unknown": (
        "Round {round_id} entered the review database without a SHA256SUMS; without the "
        "archive's identity nothing is appended to its annulment ledger."
    ),
    "error_round_other_archive": (
        "The folder {path} holds another round archive (round {found_round_id}, SHA256SUMS "
        "{found}…), not the one recorded for round {round_id} when it entered the review "
        "database (SHA256SUMS {recorded}…). Nothing was written; restore the original folder."
    ),
    "error_contest_in_ledger": (
        "The annulment ledger already holds the acceptance of contestation {contest_id} (an "
        "earlier decision was interrupted before it was saved); it is now marked accepted "
        "and cannot be rejected."
    ),
    "error_audit_first_entry": (
        "Audit log broken at entry {entry}: the first remaining entry points to an earlier "
        "one, which was removed."
    ),
    "error_audit_link": (
        "Audit log broken at entry {entry}: it does not carry the hash of entry {previous}, "
        "which was altered, or entries between the two were removed."
    ),
    # administration: leak report, assignment, adjudication, agreement, plurals
    **ADMIN_EN,
}

CATALOGUES: Mapping[str, Mapping[str, str]] = {"pt-BR": PT_BR, "en": EN}


BABEL_LOCALES: Mapping[str, str] = {"pt-BR": "pt_BR", "en": "en"}


@cache
def _locale(language: str) -> Locale:
    return Locale.parse(BABEL_LOCALES[language])


def _plural_form(language: str, count: int) -> str:
    """CLDR's plural category of `count` in `language`: "one", "many", "other"..."""
    return str(_locale(language).plural_form(count))


def translate(language: str, key: str, **params: object) -> str:
    """The message `key` in `language` (pt-BR when the language is unknown).

    A message that depends on a number has plural forms, `key#one` and `key#other`; the
    `count` parameter picks one by the language's CLDR rule (Babel), `other` standing in
    for forms the catalogue does not spell out ("many")."""
    if language not in CATALOGUES:
        language = DEFAULT_LANGUAGE
    catalogue = CATALOGUES[language]
    if key not in catalogue and f"{key}#other" in catalogue:
        count = params["count"]
        if not isinstance(count, int):
            raise TypeError(f"message {key!r} needs an integer count, got {count!r}")
        form = _plural_form(language, count)
        key = f"{key}#{form}" if f"{key}#{form}" in catalogue else f"{key}#other"
    return catalogue[key].format(**params)
