"""Request validation problems in the API's own words (never pydantic's): one phrase per problem."""
from __future__ import annotations

PHRASES = {
    "missing": "is required",
    "extra_forbidden": "is not a field of this request",
    "string_type": "must be a string",
    "int_type": "must be a whole number",
    "int_parsing": "must be a whole number",
    "float_type": "must be a number",
    "bool_type": "must be true or false",
    "bool_parsing": "must be true or false",
    "dict_type": "must be a JSON object",
    "model_type": "must be a JSON object",
    "model_attributes_type": "must be a JSON object",
    "list_type": "must be a JSON array",
    "literal_error": "is not one of the allowed values",
    "enum": "is not one of the allowed values",
    "string_pattern_mismatch": "holds characters it may not",
    "int_from_float": "must be a whole number",
    "none_required": "must be null",
}


def describe(problem: dict) -> str:
    where = ".".join(str(part) for part in problem.get("loc", ()) if part != "body") or "body"
    kind, ctx = problem.get("type", ""), problem.get("ctx") or {}
    if kind in PHRASES:
        return f"{where} {PHRASES[kind]}"
    if kind == "string_too_short":
        return f"{where} must be at least {ctx.get('min_length')} character(s)"
    if kind == "string_too_long":
        return f"{where} must be at most {ctx.get('max_length')} characters"
    bounds = {"greater_than_equal": ("at least", "ge"), "greater_than": ("more than", "gt"),
              "less_than_equal": ("at most", "le"), "less_than": ("less than", "lt")}
    if kind in bounds:
        words, key = bounds[kind]
        return f"{where} must be {words} {ctx.get(key)}"
    if kind == "value_error":           # our own validators' messages ("must be a whole number")
        return f"{where} {ctx.get('error', 'is not valid')}"
    return f"{where} is not valid"
