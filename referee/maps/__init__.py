"""Maps of a game position: plain text for the mail body, PNG for the attachment."""
