//! Integration tests: the real server on 127.0.0.1:0, a fresh database per
//! test (SQLite file or PostgreSQL database), driven over HTTP — and a real
//! headless Chromium for the journeys a person clicks through.

mod accounts;
mod advisories;
mod browser;
mod calendar;
mod clearance;
mod demo;
mod follow_ups;
mod forms;
mod helpers;
mod hostile;
mod incidents;
mod inventory;
mod jobs;
mod mail;
mod matrix;
mod pages;
mod questions;
mod quick_entry;
mod reminders;
mod reports;
mod security;
mod smtp;
mod transfer;
