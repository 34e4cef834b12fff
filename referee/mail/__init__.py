"""Mail in and out of the referee; nothing here knows a game or a campaign.

- ``read``: one incoming mail as the referee understands it: sender, tags, command text,
  and whether it is a machine's mail that must never be answered.
- ``inbox``: where new mail comes from (a local Maildir or an IMAP folder), and marking it
  processed.
- ``outbox``: composing the referee's mails, the on-disk queue, and the senders (a local
  Maildir or SMTP).
"""
