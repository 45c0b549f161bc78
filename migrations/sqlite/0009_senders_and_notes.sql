-- The member who sent a request, to tell them when the vendor answers.
-- Requests sent before this version have none (their services' owners are
-- told). No foreign key: a member who leaves keeps their past requests.
ALTER TABLE question_requests ADD COLUMN sent_by_member BLOB;
-- When asked again: the reviewer's note on why the earlier answer was not
-- enough, sent with the question.
ALTER TABLE question_items ADD COLUMN earlier_note TEXT;
