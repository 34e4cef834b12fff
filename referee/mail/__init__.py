"""Mail in and out of the referee; nothing here knows a game or reads a campaign.

- ``read``: one incoming mail as the referee understands it: sender, tags, command text,
  and whether it is a machine's mail that must never be answered.
- ``routing``: which campaign a read mail is for, the token it carries, its command lines.
- ``inbox``: where new mail comes from (a local Maildir; ``imap``: an IMAP folder), and marking it
  processed.
- ``compose``: a mail from the referee, with the headers that keep robots from answering it.
- ``outbox``: the on-disk queue of mail to send, and the senders (a local Maildir or SMTP);
  ``queue``: what waits in it, asked without them.
"""
