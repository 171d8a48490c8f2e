package io.ordo.simulation;

import io.ordo.domain.GroupName;
import io.ordo.domain.InvalidInputException;
import io.ordo.domain.NewTask;
import io.ordo.domain.QueueSettings;
import io.ordo.ports.PublishOutcome;
import io.ordo.ports.PublishReceipt;
import io.ordo.ports.TaskStore;

import java.util.List;
import java.util.Optional;
import java.util.function.Function;

import static io.ordo.simulation.InvariantViolation.fail;

/**
 * What spans the queue's views (docs/groups.md): a publish (through any store) is a duplicate when any view
 * holds or remembers the id and otherwise reaches every group, or the own view while there is none; groups
 * are created (with the own view's settings), listed by name and deleted (then every call on one's state is
 * refused naming {@code group}); configure through the queue's own store sets every view, through a group's
 * store that group alone.
 */
final class GroupInvariants {

    private final ViewsModel model;
    private final Function<Optional<GroupName>, TaskStore> stores;

    GroupInvariants(ViewsModel model, Function<Optional<GroupName>, TaskStore> stores) {
        this.model = model;
        this.stores = stores;
    }

    void onPublish(List<NewTask> batch, List<PublishReceipt> receipts, long now) {
        model.beginPublish();
        if (receipts.size() != batch.size()) {
            fail(Invariant.OUTCOMES, "publish of %d tasks returned %d receipts", batch.size(), receipts.size());
        }
        for (int i = 0; i < batch.size(); i++) {
            NewTask request = batch.get(i);
            PublishReceipt receipt = receipts.get(i);
            if (!receipt.id().equals(request.id())) {
                fail(Invariant.OUTCOMES, "publish receipt %d is for %s, the batch has %s there", i, receipt.id(),
                        request.id());
            }
            PublishOutcome expected = model.expectedPublish(request.id(), now);
            if (expected != null && receipt.outcome() != expected) {
                fail(Invariant.OUTCOMES, "publish of %s: expected %s, got %s (%s)", request.id(), expected,
                        receipt.outcome(), describe(request));
            }
            if (receipt.outcome() == PublishOutcome.CREATED) {
                model.create(request, now);
            }
        }
        model.endPublish();
    }

    /** The views a configure through the store {@code through} sets: the own store's every view, a group's one. */
    List<Optional<GroupName>> configured(Optional<GroupName> through) {
        return through.isEmpty() ? model.views() : List.of(through);
    }

    /** After a configure through the store {@code through}, every view's store reads back its model's settings. */
    void checkSettings(Optional<GroupName> through, QueueSettings requested) {
        List<Optional<GroupName>> reached = configured(through);
        for (Optional<GroupName> view : model.views()) {
            QueueSettings stored = stores.apply(view).settings();
            if (reached.contains(view) && !requested.equals(stored)) {
                fail(Invariant.OUTCOMES, "configured %s%s but settings()%s returns %s", requested, through(through),
                        in(view), stored);
            }
            if (!stored.equals(model.view(view).settings)) {
                fail(Invariant.GROUPS, "after configure%s, settings()%s returns %s, expected %s", through(through),
                        in(view), stored, model.view(view).settings);
            }
        }
    }

    /** A new group starts empty, with the settings the queue's own view has now. */
    void onCreateGroup(GroupName group, boolean created, List<GroupName> listed) {
        boolean expected = !model.groups.containsKey(group.value());
        if (created != expected) {
            fail(Invariant.GROUPS, "createGroup(%s) answered %s, but the group %s", group, created,
                    expected ? "did not exist" : "existed");
        }
        if (created) {
            model.groups.put(group.value(), new QueueModel(model.own.settings));
            QueueSettings settings = stores.apply(Optional.of(group)).settings();
            if (!settings.equals(model.own.settings)) {
                fail(Invariant.GROUPS, "the new group %s has settings %s, the queue's own view %s", group, settings,
                        model.own.settings);
            }
        }
        checkListed(listed);
    }

    /** A deleted group's state is gone whole: every call of its store on it is refused naming {@code group}. */
    void onDeleteGroup(GroupName group, boolean deleted, List<GroupName> listed) {
        QueueModel removed = model.groups.remove(group.value());
        boolean expected = removed != null;
        if (removed != null) {
            model.deleted.add(removed); // the queue keeps the ids it acked in its dedup window
        }
        if (deleted != expected) {
            fail(Invariant.GROUPS, "deleteGroup(%s) answered %s, but the group %s", group, deleted,
                    expected ? "existed" : "did not exist");
        }
        checkListed(listed);
        if (deleted) {
            try {
                Object stats = stores.apply(Optional.of(group)).stats();
                fail(Invariant.GROUPS, "group %s was deleted, but its store's stats() answered %s", group, stats);
            } catch (InvalidInputException refused) {
                refusedNamingGroup(group, "stats()", refused);
            }
        }
    }

    /** The answer to a call on the state of a group that does not exist: refused naming {@code group}. */
    static void refusedNamingGroup(GroupName group, String call, InvalidInputException refused) {
        if (!"group".equals(refused.field())) {
            fail(Invariant.GROUPS, "%s on group %s, which does not exist, was refused naming %s, not group: %s", call,
                    group, refused.field(), refused.getMessage());
        }
    }

    /** The store answered a call on the state of a group that does not exist. */
    static InvariantViolation answeredForMissing(GroupName group) {
        return new InvariantViolation(Invariant.GROUPS, "group " + group
                + " does not exist, but its store answered a call on its state instead of refusing it");
    }

    private void checkListed(List<GroupName> listed) {
        List<String> names = listed.stream().map(GroupName::value).toList();
        if (!names.equals(List.copyOf(model.groups.keySet()))) {
            fail(Invariant.GROUPS, "groups() lists %s, expected %s (by name)", names, model.groups.keySet());
        }
    }

    private String describe(NewTask request) {
        if (model.groups.isEmpty()) {
            return model.own.describeId(request.id());
        }
        StringBuilder text = new StringBuilder();
        for (Optional<GroupName> view : model.views()) {
            text.append(text.length() == 0 ? "" : "; ").append(view.map(GroupName::value).orElse("own view"))
                    .append(": ").append(model.view(view).describeId(request.id()));
        }
        return text.toString();
    }

    private static String through(Optional<GroupName> through) {
        return through.map(group -> " through group " + group + "'s store").orElse("");
    }

    private static String in(Optional<GroupName> view) {
        return view.map(group -> " of group " + group).orElse("");
    }
}
