-- Elements by descriptor key across an app's screens: where the same
-- element has led from any screen (Store.OutcomesAnywhere, the
-- sensitive-action policy's look ahead).
CREATE INDEX elements_key ON elements (key);
