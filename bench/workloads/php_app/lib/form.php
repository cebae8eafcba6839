<?php
// form.php - the form validation of the request workload.
declare(strict_types=1);

function validate_checkout(array $post): array
{
    $errors = [];
    $name = trim((string)($post['name'] ?? ''));
    if ($name === '') {
        $errors['name'] = 'required';
    } elseif (mb_strlen($name) > 60) {
        $errors['name'] = 'too long';
    }
    $email = trim((string)($post['email'] ?? ''));
    if (!filter_var($email, FILTER_VALIDATE_EMAIL)) {
        $errors['email'] = 'not an e-mail address';
    }
    $zip = (string)($post['zip'] ?? '');
    if (!preg_match('/^[0-9]{5}$/', $zip)) {
        $errors['zip'] = 'five digits';
    }
    return $errors;
}
