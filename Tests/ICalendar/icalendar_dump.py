#!/usr/bin/python3
"""Prints, as JSON, what Debian's python3-icalendar reads from iCalendar files: per event and
todo its UID, SUMMARY, dates, rule, status, priority, categories, parent and sort order, and
for a repeating event the days python3-dateutil's rrule gives it in the years asked for.

Run with Debian's Python (/usr/bin/python3), where python3-icalendar is installed:

    /usr/bin/python3 Tests/ICalendar/icalendar_dump.py FIRST_YEAR LAST_YEAR FILE.ics ...

The Swift test ICalendarDifferentialTests writes the demo's birthdays.ics and todos.ics, runs
this on them, and compares the result with what Rolodeck meant to write.
"""

import datetime
import json
import sys

import icalendar
from dateutil import rrule


def text(value):
    return None if value is None else str(value)


def day(value):
    """A DATE or DATE-TIME property as ISO 8601 text (a time keeps its offset, if it has one)."""
    if value is None:
        return None
    return value.dt.isoformat()


def categories(component):
    found = []
    values = component.get("categories")
    if values is None:
        return found
    for value in values if isinstance(values, list) else [values]:
        if hasattr(value, "cats"):
            found += [str(item) for item in value.cats]
        else:
            found += [item for item in value.to_ical().decode("utf-8").split(",")]
    return found


def occurrences(component, first, last):
    """The days a yearly event falls on from FIRST to LAST (years), by dateutil's rrule."""
    rule = component.get("rrule")
    if rule is None:
        return []
    start = component.get("dtstart").dt
    if not isinstance(start, datetime.datetime):
        start = datetime.datetime(start.year, start.month, start.day)
    expanded = rrule.rrulestr(rule.to_ical().decode("ascii"), dtstart=start)
    between = expanded.between(datetime.datetime(first, 1, 1), datetime.datetime(last, 12, 31), inc=True)
    return [moment.date().isoformat() for moment in between]


def dump(path, first, last):
    with open(path, "rb") as handle:
        calendar = icalendar.Calendar.from_ical(handle.read())
    items = []
    for component in calendar.walk():
        if component.name not in ("VEVENT", "VTODO"):
            continue
        priority = component.get("priority")
        items.append({
            "kind": component.name,
            "uid": text(component.get("uid")),
            "summary": text(component.get("summary")),
            "dtstamp": day(component.get("dtstamp")),
            "dtstart": day(component.get("dtstart")),
            "dtend": day(component.get("dtend")),
            "due": day(component.get("due")),
            "rrule": component.get("rrule").to_ical().decode("ascii") if component.get("rrule") else None,
            "status": text(component.get("status")),
            "priority": None if priority is None else int(priority),
            "description": text(component.get("description")),
            "categories": categories(component),
            "relatedTo": text(component.get("related-to")),
            "sortOrder": text(component.get("x-apple-sort-order")),
            "occurrences": occurrences(component, first, last),
        })
    return {"name": text(calendar.get("x-wr-calname")), "items": items}


def main():
    first, last = int(sys.argv[1]), int(sys.argv[2])
    print(json.dumps({path.rsplit("/", 1)[-1]: dump(path, first, last) for path in sys.argv[3:]},
                     ensure_ascii=False, indent=1))


if __name__ == "__main__":
    main()
