-- Schoolhouse database schema (SQLite).
CREATE TABLE users (
    id INTEGER PRIMARY KEY,
    login TEXT NOT NULL UNIQUE,
    name TEXT NOT NULL,
    role TEXT NOT NULL CHECK (role IN ('admin', 'teacher', 'student')),
    password TEXT NOT NULL
);
CREATE TABLE terms (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    starts TEXT NOT NULL,
    ends TEXT NOT NULL
);
CREATE TABLE classes (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    teacher_id INTEGER NOT NULL REFERENCES users(id),
    term_id INTEGER NOT NULL REFERENCES terms(id),
    period INTEGER NOT NULL,
    room TEXT NOT NULL
);
CREATE TABLE enrolments (
    class_id INTEGER NOT NULL REFERENCES classes(id),
    student_id INTEGER NOT NULL REFERENCES users(id),
    PRIMARY KEY (class_id, student_id)
);
CREATE TABLE assignments (
    id INTEGER PRIMARY KEY,
    class_id INTEGER NOT NULL REFERENCES classes(id),
    title TEXT NOT NULL,
    due TEXT NOT NULL,
    points INTEGER NOT NULL
);
CREATE TABLE grades (
    assignment_id INTEGER NOT NULL REFERENCES assignments(id),
    student_id INTEGER NOT NULL REFERENCES users(id),
    score REAL NOT NULL,
    PRIMARY KEY (assignment_id, student_id)
);
CREATE TABLE attendance (
    class_id INTEGER NOT NULL REFERENCES classes(id),
    student_id INTEGER NOT NULL REFERENCES users(id),
    day TEXT NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('present', 'absent', 'late', 'excused')),
    PRIMARY KEY (class_id, student_id, day)
);
CREATE TABLE announcements (
    id INTEGER PRIMARY KEY,
    posted TEXT NOT NULL,
    author_id INTEGER NOT NULL REFERENCES users(id),
    title TEXT NOT NULL,
    body TEXT NOT NULL
);
