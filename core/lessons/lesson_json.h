// SPDX-License-Identifier: MIT
// Lessons as versioned JSON documents (resources/lessons/*.json, and a user's lesson folder):
// {"format": "pbx-lesson", "version": 1, "id": "…", "title": "…", "summary": "…",
//  "steps": [{"title", "explanation",
//             "setup": {"session": {"dataset", "epsilon", "delta", "filter", "neighbours", "seed"},
//                       "requests": [<a `pbx-cli run` request>, …], "repeat": n,
//                       "comparison": {"plan": <a `pbx-cli account --ledger` document>, "delta",
//                       "strategies"}, "view": "main"},
//             "question", "answer"}]}
// docs/lessons.md documents the format with an example.
#pragma once

#include "core/io/json_fields.h"
#include "core/lessons/lesson.h"

#include <string>
#include <string_view>

namespace pbx::lessons {

/// Reads a lesson document. Strict: unknown keys are refused everywhere (a misspelt key must
/// not silently change a lesson), the format must be "pbx-lesson" and the version 1, every step
/// needs a title, explanation, question and answer, requests need a session (in their step or
/// an earlier one), request ids must be unique within a step, and the answer's placeholders
/// must name values the step produces (checkAnswerTemplate). `what` names the document in
/// messages ("composition.json"). Errors: Parse or InvalidArgument naming the JSON path, e.g.
/// "steps[2].setup.session.filter: unknown filter 'zcpd' (…)".
Result<Lesson> parseLesson(std::string_view text, const std::string &what);
/// The same from a parsed document.
Result<Lesson> readLesson(const io::json::Json &document);

/// The document of `lesson` (the inverse of readLesson: readLesson(lessonToJson(l)) equals l).
io::json::Json lessonToJson(const Lesson &lesson);
/// lessonToJson as indented text.
std::string writeLesson(const Lesson &lesson);

} // namespace pbx::lessons
