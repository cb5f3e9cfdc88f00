"""The administrator's work on a round, whatever its kind: sampling and assignment,
batches and their leak review, progress, calibration and agreement, adjudication,
contestations, and the exports of the audit and of every judgment."""
