-- Schoolhouse sample data: one term, three teachers, eight students.
-- Passwords are md5 of "secret".
INSERT INTO users VALUES (1, 'admin', 'Office Admin', 'admin', '5ebe2294ecd0e0f08eab7690d2a6ee69');
INSERT INTO users VALUES (2, 'hgrant', 'Helen Grant', 'teacher', '5ebe2294ecd0e0f08eab7690d2a6ee69');
INSERT INTO users VALUES (3, 'pmoss', 'Peter Moss', 'teacher', '5ebe2294ecd0e0f08eab7690d2a6ee69');
INSERT INTO users VALUES (4, 'rkaur', 'Ravi Kaur', 'teacher', '5ebe2294ecd0e0f08eab7690d2a6ee69');
INSERT INTO users VALUES (10, 'aadams', 'Amy Adams', 'student', '5ebe2294ecd0e0f08eab7690d2a6ee69');
INSERT INTO users VALUES (11, 'bbrown', 'Ben Brown', 'student', '5ebe2294ecd0e0f08eab7690d2a6ee69');
INSERT INTO users VALUES (12, 'cchen', 'Chloe Chen', 'student', '5ebe2294ecd0e0f08eab7690d2a6ee69');
INSERT INTO users VALUES (13, 'doneil', 'Dan O''Neil', 'student', '5ebe2294ecd0e0f08eab7690d2a6ee69');
INSERT INTO users VALUES (14, 'eevans', 'Eva Evans', 'student', '5ebe2294ecd0e0f08eab7690d2a6ee69');
INSERT INTO users VALUES (15, 'ffox', 'Finn Fox', 'student', '5ebe2294ecd0e0f08eab7690d2a6ee69');
INSERT INTO users VALUES (16, 'ggarcia', 'Gia Garcia', 'student', '5ebe2294ecd0e0f08eab7690d2a6ee69');
INSERT INTO users VALUES (17, 'hhill', 'Hal Hill', 'student', '5ebe2294ecd0e0f08eab7690d2a6ee69');
INSERT INTO terms VALUES (1, 'Autumn 2011', '2011-09-05', '2011-12-16');
INSERT INTO terms VALUES (2, 'Spring 2012', '2012-01-09', '2012-04-27');
INSERT INTO classes VALUES (1, 'Algebra I', 2, 1, 1, '101');
INSERT INTO classes VALUES (2, 'English Literature', 3, 1, 2, '204');
INSERT INTO classes VALUES (3, 'Biology', 4, 1, 3, 'Lab 2');
INSERT INTO classes VALUES (4, 'Geometry', 2, 2, 1, '101');
INSERT INTO classes VALUES (5, 'Art & Design', 3, 1, 4, 'Studio');
INSERT INTO enrolments VALUES (1, 10), (1, 11), (1, 12), (1, 13), (1, 14);
INSERT INTO enrolments VALUES (2, 10), (2, 12), (2, 15), (2, 16), (2, 17);
INSERT INTO enrolments VALUES (3, 11), (3, 13), (3, 14), (3, 15);
INSERT INTO enrolments VALUES (4, 10), (4, 11);
INSERT INTO assignments VALUES (1, 1, 'Linear equations', '2011-09-20', 20);
INSERT INTO assignments VALUES (2, 1, 'Inequalities', '2011-10-04', 20);
INSERT INTO assignments VALUES (3, 1, 'Midterm exam', '2011-10-25', 100);
INSERT INTO assignments VALUES (4, 2, 'Essay: Hamlet', '2011-09-30', 50);
INSERT INTO assignments VALUES (5, 2, 'Poetry reading', '2011-10-14', 10);
INSERT INTO assignments VALUES (6, 3, 'Cell diagram', '2011-09-23', 25);
INSERT INTO assignments VALUES (7, 3, 'Lab report 1', '2011-10-07', 40);
INSERT INTO assignments VALUES (8, 4, 'Angles', '2012-01-25', 30);
INSERT INTO grades VALUES (1, 10, 19), (1, 11, 14), (1, 12, 20), (1, 13, 11), (1, 14, 17);
INSERT INTO grades VALUES (2, 10, 18), (2, 11, 12), (2, 12, 16), (2, 13, 9);
INSERT INTO grades VALUES (3, 10, 90), (3, 11, 71), (3, 12, 88), (3, 13, 59), (3, 14, 80);
INSERT INTO grades VALUES (4, 10, 45), (4, 12, 41), (4, 15, 30), (4, 16, 47), (4, 17, 38);
INSERT INTO grades VALUES (5, 10, 9), (5, 12, 10), (5, 15, 6), (5, 16, 8);
INSERT INTO grades VALUES (6, 11, 20), (6, 13, 15), (6, 14, 25), (6, 15, 22);
INSERT INTO grades VALUES (7, 11, 30), (7, 13, 28), (7, 14, 36);
INSERT INTO grades VALUES (8, 10, 27);
INSERT INTO attendance VALUES (1, 10, '2011-09-12', 'present'), (1, 11, '2011-09-12', 'absent'),
    (1, 12, '2011-09-12', 'present'), (1, 13, '2011-09-12', 'late'), (1, 14, '2011-09-12', 'present');
INSERT INTO attendance VALUES (1, 10, '2011-09-13', 'present'), (1, 11, '2011-09-13', 'present'),
    (1, 12, '2011-09-13', 'excused'), (1, 13, '2011-09-13', 'absent'), (1, 14, '2011-09-13', 'present');
INSERT INTO attendance VALUES (2, 10, '2011-09-12', 'present'), (2, 12, '2011-09-12', 'late'),
    (2, 15, '2011-09-12', 'absent'), (2, 16, '2011-09-12', 'present'), (2, 17, '2011-09-12', 'present');
INSERT INTO announcements VALUES (1, '2011-09-01', 1, 'Welcome back', 'Classes start on Monday 5 September.');
INSERT INTO announcements VALUES (2, '2011-09-15', 2, 'Algebra help sessions', 'Room 101, Tuesdays & Thursdays after school.');
INSERT INTO announcements VALUES (3, '2011-10-01', 1, 'Parents'' evening', 'Thursday 13 October, 6 pm to 8 pm.');
INSERT INTO announcements VALUES (4, '2011-10-20', 4, 'Lab safety', 'Goggles must be worn in Lab 2 at all times.');
