<?php
/*
 * Database access through PDO.
 */

function db()
{
    global $sh_config;
    static $pdo = null;
    if ($pdo !== null) {
        return $pdo;
    }
    $pdo = new PDO($sh_config['dsn']);
    $pdo->setAttribute(PDO::ATTR_ERRMODE, PDO::ERRMODE_EXCEPTION);
    $pdo->setAttribute(PDO::ATTR_DEFAULT_FETCH_MODE, PDO::FETCH_ASSOC);
    $tables = $pdo->query("SELECT COUNT(*) FROM sqlite_master WHERE type = 'table'")->fetchColumn();
    if ($tables == 0) {
        $dir = dirname(__FILE__) . '/../sql';
        $pdo->exec(file_get_contents($dir . '/schema.sql'));
        $pdo->exec(file_get_contents($dir . '/seed.sql'));
    }
    return $pdo;
}

/* All rows of a query with parameters. */
function db_all($sql, $params = array())
{
    $st = db()->prepare($sql);
    $st->execute($params);
    return $st->fetchAll();
}

/* The first row, or null. */
function db_row($sql, $params = array())
{
    $rows = db_all($sql, $params);
    return count($rows) > 0 ? $rows[0] : null;
}

function db_value($sql, $params = array())
{
    $st = db()->prepare($sql);
    $st->execute($params);
    return $st->fetchColumn();
}

function db_exec($sql, $params = array())
{
    $st = db()->prepare($sql);
    $st->execute($params);
    return $st->rowCount();
}

function find_user($id)
{
    return db_row('SELECT * FROM users WHERE id = ?', array($id));
}

function find_class($id)
{
    return db_row('SELECT c.*, u.name AS teacher, t.name AS term
                   FROM classes c JOIN users u ON u.id = c.teacher_id JOIN terms t ON t.id = c.term_id
                   WHERE c.id = ?', array($id));
}

function class_students($class_id)
{
    return db_all('SELECT u.id, u.name FROM enrolments e JOIN users u ON u.id = e.student_id
                   WHERE e.class_id = ? ORDER BY u.name', array($class_id));
}

function class_assignments($class_id)
{
    return db_all('SELECT * FROM assignments WHERE class_id = ? ORDER BY due, id', array($class_id));
}

/* score[assignment_id][student_id] for one class */
function class_scores($class_id)
{
    $scores = array();
    $rows = db_all('SELECT g.assignment_id, g.student_id, g.score FROM grades g
                    JOIN assignments a ON a.id = g.assignment_id WHERE a.class_id = ?', array($class_id));
    foreach ($rows as $row) {
        $scores[$row['assignment_id']][$row['student_id']] = $row['score'];
    }
    return $scores;
}

function student_classes($student_id)
{
    return db_all('SELECT c.id, c.name, c.period, c.room, u.name AS teacher, t.name AS term
                   FROM enrolments e JOIN classes c ON c.id = e.class_id
                   JOIN users u ON u.id = c.teacher_id JOIN terms t ON t.id = c.term_id
                   WHERE e.student_id = ? ORDER BY t.starts, c.period', array($student_id));
}
