"""The findings store as the SQL planner (offline or LLM) may query it."""

from __future__ import annotations

from graph.vocab import DISPOSITIONS

SCHEMA_DESCRIPTION = """\
SQLite tables (read-only; one SELECT, at most 200 rows; nothing else is queryable):

reports -- one ingested file, usually a 감사원 audit report
  id TEXT PK (e.g. 'jj20250925_091048'), kind ('audit_report' | 'document'), source_file,
  source_path (absolute path the file was ingested from),
  sha256, format ('pdf' | 'hwp' | 'hwpx' | 'docx'), title (report title), audit_type
  (e.g. '기관정기감사', '성과감사', '특정사안감사'), report_date (text, e.g. '2025. 9.'),
  year INTEGER, month INTEGER, institutions (JSON array text of audited institutions),
  page_count INTEGER, ingested_at (timestamp)

findings -- one 지적사항 (audit finding) of a report
  id TEXT PK (e.g. 'jj20250925_091048-F02'), report_id -> reports.id, number INTEGER
  (order in the report), title, disposition (the first disposition only),
  institution (소관 기관, else the first 조치 기관, e.g. '경찰청', '해양수산부'),
  responsible_org, action_orgs (조치 기관, comma-separated), year INTEGER (report year),
  audit_type (copied from the report), overview, criteria (관계 법령), problems (문제점),
  opinion (기관 의견), actions (조치할 사항), amount_krw INTEGER (largest amount stated, won),
  page_start INTEGER, page_end INTEGER

finding_dispositions -- every disposition of a finding (one row each; unique per finding)
  id INTEGER PK, finding_id -> findings.id, disposition, ordinal INTEGER
  disposition values: {dispositions}

Notes: count findings with COUNT(DISTINCT f.id) when joining finding_dispositions; match
institutions with LIKE '%name%' over institution, responsible_org and action_orgs; text
values in single quotes. Functions: count, sum, avg, min, max, lower, upper, length, substr,
trim, coalesce, ifnull, nullif, iif, round, abs, cast, strftime, date, instr, replace,
group_concat; operators LIKE, GLOB, BETWEEN, IN, EXISTS, CASE.
""".format(dispositions=", ".join(DISPOSITIONS))
