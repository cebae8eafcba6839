-- The shop's database (tests/e2e/test_web_mariadb.sh), for culprit web --mariadb.
CREATE DATABASE shop;
CREATE TABLE shop.items (name VARCHAR(64) NOT NULL, price INT NOT NULL);
