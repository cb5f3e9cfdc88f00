"""The counterfactual kind's pages in the review app, declared by its review part
(`review.part.REVIEW`: `pages` and `shapes`) and imported by the app only through it:
the administrator's page (`admin`), and the reviewer's views of the scale task (`scale`:
one score and the mask flag) and of a count of the extraction check (`count`)."""
