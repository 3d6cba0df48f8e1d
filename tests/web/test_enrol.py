"""The treasure enrolment view (web/enrol.py) over a running service whose camera sees a
rendered Labyrinth table: who may name pictures, malformed names answered with a 400
that names the field, and the page in a real headless Chromium naming every picture
until the game starts."""
from __future__ import annotations

import pytest

from controller.events import NewGame
from labyrinth_table import (FIRST, Table, enrolment_naming, position, shuffle, start_waiting_for_names,
                             table_service, treasures)
from support import WAIT_MS, Served, admin, running_service
from web import create_app


@pytest.fixture(scope="module")
def naming(tmp_path_factory):
    """A service waiting for the first game's pictures to be named (none are named by
    the tests that use it: each refused request must leave the list as it was)."""
    table = Table()
    with table_service(tmp_path_factory.mktemp("enrol") / "data", table) as service:
        client = create_app(service).test_client()
        view = start_waiting_for_names(service, client, table, shuffle(FIRST))
        yield service, client, view


def post(client, body, headers=None, **kw):
    return client.post("/api/enrol", json=body, headers=headers or {}, **kw)


def test_naming_needs_the_admin_token(naming):
    service, client, view = naming
    some = {view["pictures"][0]["id"]: "Mario"}
    reply = post(client, {"names": some})
    assert reply.status_code == 403 and "admin token" in reply.get_json()["error"]
    reply = post(client, {"names": some}, {"Authorization": "Bearer nope"})
    assert reply.status_code == 403 and reply.get_json()["error"] == "wrong admin token"
    assert client.get("/api/enrol").get_json()["pictures"] == view["pictures"]  # anyone may look


@pytest.mark.parametrize("body, error", [
    ({}, "field 'names' is required"),
    ({"names": ["Mario"]}, "field 'names' must be an object {picture id: treasure name}, not a list"),
    ({"names": {}}, "field 'names' is empty"),
    ({"names": {"PIC": 7}}, "field 'names' PIC: the name must be a string, not a number"),
    ({"names": {"PIC": "  "}}, "field 'names' PIC: the name is blank"),
    ({"names": {"PIC": "Wario2"}}, "field 'names': PIC: 'Wario2' is not one of the 24 treasures"),
    ({"names": {"z9": "Mario"}}, "field 'names': no picture at 'z9' waits for a name (waiting: "),
    ({"names": {"PIC": "Mario", "PIC2": "Mario"}}, "field 'names': Mario is given to both PIC and PIC2"),
])
def test_malformed_names_get_400_naming_the_field(naming, body, error):
    service, client, view = naming
    ids = [p["id"] for p in view["pictures"]]
    if "names" in body and isinstance(body["names"], dict):
        body = {"names": {ids[1] if k == "PIC2" else ids[0] if k == "PIC" else k: v
                          for k, v in body["names"].items()}}
        error = error.replace("PIC2", ids[1]).replace("PIC", ids[0])
    reply = post(client, body, admin(service))
    assert reply.status_code == 400 and reply.get_json()["error"].startswith(error), reply.get_json()
    assert client.get("/api/enrol").get_json()["pictures"] == view["pictures"]


def test_a_body_that_is_not_json_gets_400(naming):
    service, client, _ = naming
    reply = client.post("/api/enrol", data="names=", content_type="application/json", headers=admin(service))
    assert reply.status_code == 400
    assert reply.get_json()["error"] == "the request body is not valid JSON (Expecting value, line 1 column 1)"


def test_the_page_lists_the_pictures_without_javascript(naming):
    service, client, view = naming
    html = client.get("/enrol").get_data(as_text=True)
    assert html.count('<figure class="picture"') == len(view["pictures"]) == 24
    assert view["message"] in html
    # each name as printed, the catalogue's spelling kept as the value sent (issue 23)
    assert '<option value="KoopaTroopa">Koopa Troopa</option>' in html and ">KoopaTroopa<" not in html


def test_names_with_nothing_waiting_are_refused_in_words(tmp_path):
    """Without a camera a Labyrinth game is drawn by the referee (nothing to read), so no
    picture ever waits: well-formed names get the referee's answer, 422."""
    with running_service(tmp_path / "data") as service:
        client = create_app(service).test_client()
        assert client.post("/api/new-game", json={"game": "labyrinth"}, headers=admin(service)).status_code == 200
        assert client.get("/api/enrol").get_json()["state"] == "idle"
        reply = post(client, {"names": {"c3": "Mario"}}, admin(service))
        assert reply.status_code == 422
        assert reply.get_json()["error"] == "no game is waiting to start from the table"


def test_the_page_names_every_picture_and_the_game_starts(browser, tmp_path):
    table = Table()
    first = shuffle(FIRST)
    truth = treasures(first)
    with table_service(tmp_path / "data", table) as service:
        served = Served(service, heartbeat_s=0.2)
        context = browser.new_context(viewport={"width": 420, "height": 900})
        try:
            page = context.new_page()
            page.goto(served.url + "/enrol")
            assert page.locator("figure.picture").count() == 0
            table.lay(position(first))
            assert service.submit(NewGame(game="labyrinth")).ok
            enrolment_naming(create_app(service).test_client())
            # the pictures arrive through the event stream, without a reload
            page.wait_for_selector("figure.picture >> nth=23", timeout=WAIT_MS)
            assert page.locator("#enrol-state").get_attribute("data-state") == "naming"
            for fig in page.locator("figure.picture").all():
                fig.locator("select").select_option(truth[fig.get_attribute("data-id")])
            page.fill("#admin-token", service.admin_token)
            page.click("#save")
            page.wait_for_selector("#enrol-result:has-text('The game has started')", timeout=WAIT_MS)
            assert service.referee.game.name == "labyrinth" and service.referee.state.tiles == first.tiles
            page.wait_for_selector("#enrol-state[data-state='idle']", timeout=WAIT_MS)
            assert page.locator("figure.picture").count() == 0
        finally:
            context.close()
            served.close()
